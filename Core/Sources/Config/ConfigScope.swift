import Bindings
import ConfigDocument
import Gestures

/// Whose configuration a file is. The machine's (`/etc/gestured/gestured.toml`) says
/// everything. A user's (`~/.config/gestured/gestured.toml`, which the session agent
/// hands over while that user's session is in front) says what is theirs: gestures,
/// regions and modes (`[daemon]` mode, modes and mode_timeout_s). What belongs to the
/// machine is refused there, each at its line: the rest of `[daemon]` (the bus, the user
/// commands run as, isolation, rotation, the wake latch, the pen's palm, …),
/// `[[device]]` rules, and `when_locked` gestures (what fires on the lock screen is the
/// kiosk's choice, not a session's).
public enum ConfigScope: Sendable {
    case machine
    case user
}

extension Configuration {
    static let userDaemonKeys: Set<String> = ["mode", "modes", "mode_timeout_s", "overlay"]

    /// Reports what a user's file may not say, each at its line.
    static func refuseTheMachines(_ root: ConfigTable, _ diagnostics: Diagnostics) {
        let machines = "the machine's setting (/etc/gestured/gestured.toml), not a user's"
        if let daemon = root["daemon"]?.table {
            for key in daemon.keys where !userDaemonKeys.contains(key) {
                diagnostics.report("\(machines): a user's [daemon] takes mode, modes, mode_timeout_s and overlay; remove it", array: "daemon", index: 0, key: key)
            }
        }
        if root["device"] != nil {
            diagnostics.report("\(machines): [[device]] rules say how the machine's panels are read; remove it", array: "device",
                               index: root["device"]?.array == nil ? 0 : 1, key: nil)
        }
        for (i, gesture) in (root["gesture"]?.array ?? []).enumerated() where gesture.table?["when_locked"] != nil {
            diagnostics.report("\(machines): what fires on the lock screen is the machine's choice; remove it", array: "gesture", index: i + 1, key: "when_locked")
        }
    }
}

extension Configuration {
    /// A user's gestures at most: each is a recognizer on every panel.
    public static let mostUserGestures = 64

    /// The configuration in force while a user's session is in front of the seat: the
    /// machine's, then the user's gestures after its own. Where a gesture of each takes the
    /// same touches, the machine's fires (the earlier of two gestures wins, as in one
    /// file). A user's gesture named as one of the machine's is left out (`leftOut`; a
    /// push is refused for it, but the machine's file may change since). A user's
    /// `require_failure_of` and `simultaneous_with` name only their own gestures (their
    /// file is checked alone); the machine's only the machine's. Modes are both's; the
    /// user's `[daemon] mode` and `mode_timeout_s`, where given, are the ones in force.
    /// The user's bindings are `owner`'s from now on, whatever is in force when they fire.
    public func merging(_ user: Configuration, owner: BindingOwner) -> (config: Configuration, leftOut: [String]) {
        var merged = self
        let machineNames = Set(gestures.map(\.name))
        var leftOut: [String] = []
        for (gesture, binding) in zip(user.gestures, user.bindings) {
            guard !machineNames.contains(gesture.name) else {
                leftOut.append(gesture.name)
                continue
            }
            merged.gestures.append(gesture)
            var owned = binding
            owned.owner = owner
            merged.bindings.append(owned)
        }
        let regionNames = Set(regions.map(\.name))
        merged.regions += user.regions.filter { !regionNames.contains($0.name) }
        merged.daemon.modes += user.daemon.modes.filter { !daemon.modes.contains($0) }
        if user.daemon.mode != GestureSpec.defaultMode { merged.daemon.mode = user.daemon.mode }
        if let timeout = user.daemon.modeTimeoutSeconds { merged.daemon.modeTimeoutSeconds = timeout }
        merged.daemon.overlay = daemon.overlay || user.daemon.overlay
        return (merged, leftOut)
    }
}
