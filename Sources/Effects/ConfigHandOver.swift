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
    /// An Act's variables: GESTURE_* names, a few dozen at most.
    static let mostVariables = 64
    static let longestVariable = 4096
    /// Which binding fired, for its command or its signal, and the gesture's `GESTURE_*`
    /// variables (checked).
    public var onAct: (_ binding: String, _ kind: AgentAction.Kind, _ environment: [String]) -> Void = { _, _, _ in }
    /// An overlay update for this session (nil: the agent draws none).
    public var onFeedback: ((FeedbackFrame) -> Void)?
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
                                       member: "AppWanted") { [unowned self] _ in sendSoon() }
            try connection.matchSignal(sender: BusService.name, path: BusService.path, interface: BusService.interface,
                                       member: "Act") { [unowned self] in act($0) }
            try connection.matchSignal(sender: BusService.name, path: BusService.path, interface: BusService.interface,
                                       member: "Feedback") { [unowned self] in feedback($0) }
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
        ownerCall.ask(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
                      strings: [BusService.name]) { [unowned self] reply in
            guard SDBus.error(of: reply) == nil, let owner = SDBus.readString(reply) else { return }
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
        call.ask(bus, BusService.name, BusService.path, BusService.interface, "SetUserConfiguration",
                 strings: [current.file, current.text], bytes: current.document) { [unowned self] reply in
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
        let sender = SDBus.sender(message)
        guard let gestured, sender == gestured else { return }
        guard let binding = SDBus.readString(message, limit: 256), let kind = SDBus.readString(message).flatMap(AgentAction.Kind.init(rawValue:)),
              let environment = SDBus.readStrings(message, most: Self.mostVariables, limit: Self.longestVariable),
              environment.allSatisfy({ $0.hasPrefix("GESTURE_") && $0.contains("=") }) else {
            return logger.warning("gestured sent an Act this agent cannot read; nothing is run")
        }
        onAct(binding, kind, environment)
    }

    /// An overlay update, from gestured alone: fingers within the panel (at most ten),
    /// a progress between 0 and 1, a verdict the agent knows; anything else is dropped.
    private func feedback(_ message: OpaquePointer) {
        guard let gestured, SDBus.sender(message) == gestured, let onFeedback,
              let panel = SDBus.readString(message, limit: 256), let output = SDBus.readString(message, limit: 256),
              let gesture = SDBus.readString(message, limit: 256), let progress = SDBus.readDouble(message), (0...1).contains(progress),
              let verdict = SDBus.readString(message).flatMap(FeedbackLead.Verdict.init(rawValue:)),
              let xy = SDBus.readDoubles(message, most: 20), xy.count % 2 == 0, xy.allSatisfy({ (0...1).contains($0) }) else { return }
        let fingers = stride(from: 0, to: xy.count, by: 2).map { Point(x: xy[$0], y: xy[$0 + 1]) }
        onFeedback(FeedbackFrame(panel: panel, output: output.isEmpty ? nil : output, fingers: fingers,
                                 lead: FeedbackLead(gesture: gesture.isEmpty ? nil : gesture, progress: progress, verdict: verdict)))
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
