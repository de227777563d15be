import Bindings
import Gestures

/// Modes: which gestures fire when (`modes`, `when_locked`, `when_tablet`), the gestures that switch mode,
/// pause or lock touch (`mode`, `mode_timeout_s`, `pause_s`, `touch_lock`), and
/// `[daemon]`'s start mode.
extension Configuration {
    static let modeKeys = ["modes", "when_locked", "when_tablet", "mode", "mode_timeout_s", "pause_s", "touch_lock"]
    /// The longest a mode lasts without a gesture, or a pause, that a setting may ask for;
    /// and the shortest, below which it would end before a finger could lift.
    public static let longestControlSeconds = 86_400.0
    static let longestControl = Limit(longestControlSeconds, "a day")
    static let shortestControlSeconds = 0.1

    /// `mode_timeout_s` or `pause_s`: from a tenth of a second to a day.
    static func controlSeconds(_ t: TableReader, _ key: String) -> Double? {
        guard let seconds = t.number(key, allowingZero: false, atMost: longestControl) else { return nil }
        guard seconds >= shortestControlSeconds else {
            t.report(key, "expected at least \(shortestControlSeconds) (a tenth of a second), found \(seconds)")
            return nil
        }
        return seconds
    }

    /// Every mode: the start mode, those `[daemon] modes` declares, those gestures fire in
    /// and those they switch to, in that order.
    public var modes: [String] {
        var seen = Set<String>(), all: [String] = []
        func add(_ mode: String) {
            if mode != GestureSpec.everyMode, seen.insert(mode).inserted { all.append(mode) }
        }
        add(daemon.mode)
        daemon.modes.forEach(add)
        daemon.idleMode.map(add)
        daemon.activeMode.map(add)
        for gesture in gestures { gesture.modes.forEach(add) }
        for binding in bindings { binding.actions.mode.map { add($0.mode) } }
        return all
    }

    static func parseModes(_ t: TableReader, into spec: inout GestureSpec, _ actions: inout BoundActions) {
        if let modes = t.names("modes") {
            if modes.isEmpty { t.report("modes", "empty; list the modes it fires in, like [\"maintenance\"], or [\"*\"] for all") } else { spec.modes = modes }
        }
        spec.whenLocked = t.bool("when_locked") ?? false
        spec.whenTablet = t.bool("when_tablet")
        if let mode = t.name("mode") {
            if mode == GestureSpec.everyMode { t.report("mode", "\"*\" is every mode, not one to switch to") } else {
                actions.mode = ModeSwitch(mode: mode, timeoutSeconds: controlSeconds(t, "mode_timeout_s"))
            }
        } else if t.has("mode_timeout_s"), !t.has("mode") {
            t.report("mode_timeout_s", "goes with mode, like mode = \"maintenance\"")
        }
        actions.pauseSeconds = controlSeconds(t, "pause_s")
        if let change = t.choice("touch_lock", TouchLockChange.allCases.map(\.rawValue)) {
            actions.touchLock = TouchLockChange(rawValue: change)
            spec.unlocksTouch = actions.touchLock?.unlocks ?? false
        }
    }

    static func parseDaemonModes(_ t: TableReader, into d: inout DaemonSettings) {
        if let mode = t.name("mode") {
            if mode == GestureSpec.everyMode { t.report("mode", "\"*\" is every mode; the daemon starts in one, like \"default\"") } else { d.mode = mode }
        }
        if let modes = t.names("modes") {
            if modes.contains(GestureSpec.everyMode) { t.report("modes", "\"*\" is every mode, not one of them") } else { d.modes = modes }
        }
        d.modeTimeoutSeconds = controlSeconds(t, "mode_timeout_s")
    }

    /// A gesture that locks touch where none unlocks it would leave the panel dead until a
    /// call on the bus: refused (a user's file is checked alone, the machine's likewise).
    static func checkTouchLockEnds(_ config: Configuration, _ tables: [TableReader]) {
        guard !config.gestures.contains(where: \.unlocksTouch) else { return }
        for (binding, table) in zip(config.bindings, tables) where binding.actions.touchLock == .lock {
            table.report("touch_lock", "no gesture unlocks touch, and the panel would stay locked: give one touch_lock = \"unlock\" "
                + "(or make this one \"toggle\")")
            return
        }
    }

    /// A mode gestures fire in that nothing enters (no gesture's `mode`, not the start
    /// mode, not declared for SetMode) is a mistake: those gestures could never fire.
    static func checkModesEntered(_ config: Configuration, _ tables: [TableReader]) {
        var entered = Set([config.daemon.mode] + config.daemon.modes + [GestureSpec.everyMode])
        entered.formUnion([config.daemon.idleMode, config.daemon.activeMode].compactMap { $0 })
        for binding in config.bindings { if let mode = binding.actions.mode { entered.insert(mode.mode) } }
        var reported = Set<String>()
        for (spec, table) in zip(config.gestures, tables) {
            for mode in spec.modes where !entered.contains(mode) && reported.insert(mode).inserted {
                // Suggested among a few: comparing thousands of unentered modes to thousands of entered ones would be slow.
                let hint = entered.count <= 64 ? suggestion(for: mode, among: entered.subtracting([GestureSpec.everyMode])) : ""
                table.report("modes", "no gesture enters mode \"\(mode)\"\(hint): give one mode = \"\(mode)\", or list it in [daemon] modes for the control interface's SetMode")
            }
        }
    }
}
