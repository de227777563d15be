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
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &message, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                             "org.freedesktop.Notifications", "Notify") >= 0, let message else { return }
        defer { sd_bus_message_unref(message) }
        func string(_ s: String) -> Bool { s.withCString { sd_bus_message_append_basic(message, Character("s").asCChar, $0) >= 0 } }
        var replaces = lastID
        var timeout: Int32 = -1
        let ok = string("gestured") && sd_bus_message_append_basic(message, Character("u").asCChar, &replaces) >= 0
            && string("input-touchscreen") && string(summary) && string(body)
            && sd_bus_message_open_container(message, Character("a").asCChar, "s") >= 0 && sd_bus_message_close_container(message) >= 0
            && sd_bus_message_open_container(message, Character("a").asCChar, "{sv}") >= 0 && sd_bus_message_close_container(message) >= 0
            && sd_bus_message_append_basic(message, Character("i").asCChar, &timeout) >= 0
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
