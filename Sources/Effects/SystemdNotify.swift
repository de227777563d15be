import CSystemd

/// sd_notify(3): readiness, reloads, stopping and the watchdog, for a Type=notify unit.
/// Outside systemd (no NOTIFY_SOCKET) every call does nothing.
public enum SystemdNotify {
    public static func send(_ state: String) {
        // A failed notification has no one else to tell: systemd then times the unit out
        // and says so in its own log.
        _ = sd_notify(0, state)
    }

    /// Microseconds between watchdog pings systemd expects (WATCHDOG_USEC), if any.
    public static var watchdogInterval: Int64? {
        var usec: UInt64 = 0
        return sd_watchdog_enabled(0, &usec) > 0 ? Int64(usec) : nil
    }
}
