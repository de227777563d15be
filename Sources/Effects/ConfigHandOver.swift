import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Gestures
import Logging
import Pipeline
import SystemIO
import TouchCore

/// The session agent's side of SetUserConfiguration and Act, on the system bus: hands
/// the system service its user's configuration (the latest; again whenever gestured
/// comes on the bus or asks with AppWanted, another session having come in front), and
/// takes Act, which gestured addresses to this connection alone when one of the user's
/// gestures fires. An Act is taken only from the owner of org.gestured.Gestured1 (a
/// signal addressed to a connection reaches it whatever its match rules say; only root's
/// gestured may own the name). gestured's answer, taken or refused with the errors at
/// their lines, goes to `onAnswer`. The bus going away is tried again after 5 s, doubling
/// to a minute.
public final class ConfigHandOver: BusSource {
    private let logger: Logger
    private var connection: BusConnection?
    private let call = PendingCall()
    private let ownerCall = PendingCall()
    /// The unique name that owns org.gestured.Gestured1, as last heard.
    private var gestured: String?
    private var current: UserPush?
    private var retryAt: Int64?
    private var backoff = Backoff(first: 5_000_000)
    /// At most one a second, within what gestured takes (4 at once, then 1 a second).
    private var pace = SendPace(spacing: 1_000_000)
    /// Which binding fired, for its command or its signal, and the gesture's `GESTURE_*`
    /// variables (checked).
    public var onAct: (_ binding: String, _ kind: AgentAction.Kind, _ environment: [String]) -> Void = { _, _, _ in }
    /// An overlay update for this session (nil: the agent draws none).
    public var onFeedback: ((FeedbackFrame) -> Void)?
    /// A tagged edge swipe's progress, to say on the session bus.
    public var onProgress: (ProgressUpdate) -> Void = { _ in }
    /// nil: gestured took it; else its error.
    public var onAnswer: (_ refusal: String?) -> Void = { _ in }
    public var onWatchChange: (_ old: BusService.Watch?, _ new: BusService.Watch?) -> Void = { _, _ in }

    public init(logger: Logger) { self.logger = logger }

    public func start() {
        do {
            let connection = try BusConnection(.system)
            connection.onWatchChange = { [unowned self] old, new in onWatchChange(old, new) }
            try connection.followOwner(of: BusService.name) { [unowned self] owner in
                gestured = owner.isEmpty ? nil : owner
                if !owner.isEmpty { sendSoon() }
            }
            try connection.matchSignal(sender: BusService.name, path: BusService.path, interface: BusService.interface,
                                       member: AppWanted.member) { [unowned self] _ in sendSoon() }
            try connection.matchSignal(sender: BusService.name, path: BusService.path, interface: BusService.interface,
                                       member: Act.member) { [unowned self] in act($0) }
            try connection.matchSignal(sender: BusService.name, path: BusService.path, interface: BusService.interface,
                                       member: FeedbackFrame.member) { [unowned self] in feedback($0) }
            try connection.matchSignal(sender: BusService.name, path: BusService.path, interface: BusService.interface,
                                       member: ProgressUpdate.member) { [unowned self] in progress($0) }
            self.connection = connection
            retryAt = nil
            backoff.reset()
            askOwner()
            connection.updateWatch()
        } catch {
            retryLater("cannot connect to the system bus (\(error))")
        }
    }

    private func askOwner() {
        guard let bus = connection?.bus else { return }
        ownerCall.ask(bus, .owner(of: BusService.name)) { [unowned self] _, owner in
            guard let owner else { return }
            gestured = owner
            sendSoon()
        }
    }

    private func retryLater(_ why: String) {
        logger.warning("\(why); tried again in \(backoff.delay / 1_000_000) s")
        retryAt = backoff.next(after: monotonicMicroseconds())
    }

    /// The user's configuration now (an empty text: none, their gestures are dropped).
    public func hand(_ push: UserPush) {
        current = push
        sendSoon()
    }

    private func sendSoon() {
        let now = monotonicMicroseconds()
        if pace.sendsNow(at: now) { send(now: now) }
    }

    private func send(now: Int64) {
        guard let current, let connection, let bus = connection.bus, gestured != nil else { return pace.sent(at: nil) }
        pace.sent(at: now)
        call.ask(bus, .gestured(current)) { [unowned self] reply, _ in
            guard let error = SDBus.error(of: reply) else {
                pace.answered()
                return onAnswer(nil)
            }
            let name = SDBus.errorName(of: reply) ?? ""
            // No gestured on the bus yet is no refusal: it is handed over when it comes.
            guard !name.hasSuffix(".ServiceUnknown"), !name.hasSuffix(".NameHasNoOwner") else { return }
            if BusService.asksAgain(name) { return pace.sendsAgainAtOnce() ? send(now: monotonicMicroseconds()) : sendSoon() }
            pace.answered()
            onAnswer(error)
        }
        connection.updateWatch()
    }

    private func act(_ message: OpaquePointer) {
        guard let gestured, SDBus.sender(message) == gestured else { return }
        guard let act = Act.read(from: message) else { return logger.warning("gestured sent an Act this agent cannot read; nothing is run") }
        onAct(act.binding, act.kind, act.environment)
    }

    /// An overlay update, from gestured alone; one the agent cannot read is dropped.
    private func feedback(_ message: OpaquePointer) {
        guard let gestured, SDBus.sender(message) == gestured, let onFeedback, let frame = FeedbackFrame.read(from: message) else { return }
        onFeedback(frame)
    }

    /// A Progress update, from gestured alone.
    private func progress(_ message: OpaquePointer) {
        guard let gestured, SDBus.sender(message) == gestured, let update = ProgressUpdate.read(from: message) else { return }
        onProgress(update)
    }

    public var nextDeadline: Int64? {
        guard let connection else { return retryAt }
        return [connection.nextDeadline, pace.due].compactMap { $0 }.min()
    }

    public func process() {
        guard let connection else {
            if let retryAt, monotonicMicroseconds() >= retryAt { start() }
            return
        }
        if pace.isDue(at: monotonicMicroseconds()) { send(now: monotonicMicroseconds()) }
        if let error = connection.process() {
            self.connection = nil
            gestured = nil
            retryLater("the system bus went away (\(error))")
        }
    }
}
