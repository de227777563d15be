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
        BusQuestion.notify(replacing: lastID, summary, body).ask(on: bus, timeout: 5_000_000) { [unowned self] _, id in
            if let id { lastID = id }
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
