import ConfigDocument

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
    static let userDaemonKeys: Set<String> = ["mode", "modes", "mode_timeout_s"]

    /// Reports what a user's file may not say, each at its line.
    static func refuseTheMachines(_ root: ConfigTable, _ diagnostics: Diagnostics) {
        let machines = "the machine's setting (/etc/gestured/gestured.toml), not a user's"
        if let daemon = root["daemon"]?.table {
            for key in daemon.keys where !userDaemonKeys.contains(key) {
                diagnostics.report("\(machines): a user's [daemon] takes mode, modes and mode_timeout_s; remove it", array: "daemon", index: 0, key: key)
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
