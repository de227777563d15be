import Bindings
import Gestures

/// The seat's idleness: `[daemon] idle_s` and what runs when it begins and ends
/// (`idle_command`, `idle_mode`, `active_command`, `active_mode`), and how often the last
/// touch is said on the bus (`last_touch_interval_s`).
extension Configuration {
    static func parseIdle(_ t: TableReader, into d: inout DaemonSettings) {
        if let seconds = t.number("idle_s", allowingZero: false, atMost: longestControl) {
            if seconds < 1 { t.report("idle_s", "expected at least 1 (a second), found \(seconds)") } else { d.idleSeconds = seconds }
        }
        d.idleCommand = command(t, "idle_command", "a command", like: "wlopm --off '*'")
        d.activeCommand = command(t, "active_command", "a command", like: "wlopm --on '*'")
        for key in ["idle_mode", "active_mode"] {
            guard let mode = t.name(key) else { continue }
            if mode == GestureSpec.everyMode { t.report(key, "\"*\" is every mode, not one to switch to") } else if key == "idle_mode" {
                d.idleMode = mode
            } else {
                d.activeMode = mode
            }
        }
        if d.idleSeconds == nil {
            for key in ["idle_command", "idle_mode", "active_command", "active_mode"] where t.has(key) {
                t.report(key, "goes with idle_s, the seconds without a touch after which the seat is idle, like idle_s = 300")
            }
        }
        if let interval = t.number("last_touch_interval_s", allowingZero: false, atMost: Limit(3600, "an hour")) {
            if interval < shortestControlSeconds {
                t.report("last_touch_interval_s", "expected at least \(shortestControlSeconds) (a tenth of a second), found \(interval)")
            } else {
                d.lastTouchIntervalSeconds = interval
            }
        }
    }
}
