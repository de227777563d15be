import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Logging
import SystemIO

/// Says something to the user on their screen: org.freedesktop.Notifications' Notify on
/// the session bus, where a notification server answers (none: the journal has it
/// already). Never waits: the call is sent and its answer dropped. One notification
/// replaces the last (its id), so a file saved again and again leaves one on screen.
public final class Notifier: BusSource {
    private let logger: Logger
    private var connection: BusConnection?
    private var lastID: UInt32 = 0
    public var onWatchChange: (_ old: BusService.Watch?, _ new: BusService.Watch?) -> Void = { _, _ in }

    public init(logger: Logger) { self.logger = logger }

    public func notify(_ summary: String, _ body: String) {
        if connection == nil {
            guard let connection = try? BusConnection(.session) else { return }
            connection.onWatchChange = { [unowned self] old, new in onWatchChange(old, new) }
            self.connection = connection
        }
        guard let connection, let bus = connection.bus else { return }
        guard let message = SDBus.newCall(bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                          "org.freedesktop.Notifications", "Notify") else { return }
        defer { SDBus.unref(message) }
        // app name, the notification it replaces, icon, summary, body, actions, hints, timeout (-1: the server's).
        let ok = SDBus.append(message, "gestured") && SDBus.append(message, lastID) && SDBus.append(message, "input-touchscreen")
            && SDBus.append(message, summary) && SDBus.append(message, body) && SDBus.append(message, strings: [])
            && SDBus.container(message, "a", "{sv}") { true } && SDBus.append(message, Int32(-1))
        guard ok else { return }
        _ = SDBus.call(bus, message, timeout: 5_000_000, floating: true) { [unowned self] reply in
            if SDBus.error(of: reply) == nil, let id = SDBus.readUInt32(reply) { lastID = id }
        }
        connection.updateWatch()
    }

    public var nextDeadline: Int64? { connection?.nextDeadline }

    public func process() {
        guard let connection, let error = connection.process() else { return }
        self.connection = nil
        logger.debug("notifications: the session bus went away (\(error))")
    }
}
