import Logging

/// A few questions asked of a desktop on the session bus at the start, on a connection of
/// their own closed once they are answered (KWin's script loading, GNOME Shell's extension
/// check): every call asynchronous, one at a time, the connection watched by the loop
/// meanwhile. `what` names the desktop in what is logged.
public class SessionBusQuestions: BusSource {
    let logger: Logger
    private let what: String
    private var connection: BusConnection?
    private let call = PendingCall()
    public var onWatchChange: (_ old: BusService.Watch?, _ new: BusService.Watch?) -> Void = { _, _ in }

    init(what: String, logger: Logger) {
        self.what = what
        self.logger = logger
    }

    /// Opens the connection: nil, or why not.
    func open() -> String? {
        do { connection = try BusConnection(.session) } catch { return "no session bus (\(error))" }
        connection?.onWatchChange = { [unowned self] old, new in onWatchChange(old, new) }
        return nil
    }

    /// Asks `question`, `answer` taking the reply (an error reply too) and what it says;
    /// false when it cannot be asked (closed, or the message cannot be made).
    func ask<Answer>(_ question: BusQuestion<Answer>, _ answer: @escaping (OpaquePointer, Answer?) -> Void) -> Bool {
        guard let connection, let bus = connection.bus else { return false }
        let asked = call.ask(bus, question, answer)
        connection.updateWatch()
        return asked
    }

    func close() {
        connection?.close()
        connection = nil
    }

    public var nextDeadline: Int64? { connection?.nextDeadline }

    public func process() {
        guard let connection, let error = connection.process() else { return }
        // Closed by the answer it was processing: done, nothing went away.
        guard self.connection != nil else { return }
        self.connection = nil
        logger.warning("\(what): the session bus went away (\(error))")
    }
}
