import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Pipeline
import SystemIO
import SystemPackage
import TouchCore

/// Follows whether the session in front of the touchscreen is locked: logind's
/// `LockedHint` of seat0's active session (the system service), or of the user's own
/// graphical session (the user service: `org.freedesktop.login1.User.Display`), and for
/// the user's own session whether it is the one in front of its seat (`Active`). A
/// PropertiesChanged of the session that carries LockedHint is taken as it is; one of
/// the seat or the user (another session in front), or logind's return, makes it look
/// again. A look under way is never cancelled by the next signal (a stream of them
/// would put the lock off for ever): the next look follows it. Every call is
/// asynchronous on a system-bus connection of its own, which the loop watches.
///
/// What logind says goes to the seat as its inputs (`onInput`, each at `now`): the lock
/// (`locked`), the session in front (`activeSession`), the user's own session in front
/// or not (`sessionInFront`), and that it says nothing (away, restarting, not answering,
/// answering nonsense, the system bus it was on gone: `logindSilent`), each time: the
/// seat decides what silence means (`LockKnowledge`: it fails closed). The
/// system bus gone is tried again after 5 s, doubling to a minute; one missing from the
/// start is not waited for (idle, the daemon sleeps).
public final class LogindWatcher {
    public enum Session: Sendable {
        /// seat0's active session, whoever it is.
        case seat
        /// This user's own graphical session.
        case ownUser(uid: UInt32)
    }


    private let session: Session
    private let logger: Logger
    private var connection: BusConnection?
    private let call = PendingCall()
    /// The session followed, and the object whose changes lead to it (the seat, the user).
    private var sessionPath: String?
    private var leadPath: String?
    /// A look is under way; another was asked for meanwhile.
    private var looking = false
    private var lookAgain = false
    /// The system bus went away: when to connect again, and the wait after that.
    private var retryAt: Int64?
    private var backoff = Backoff(first: 5_000_000)
    /// What logind said, as the seat takes it; the seat's clock.
    public var onInput: (SeatInput) -> Void = { _ in }
    private let now: () -> Timestamp
    /// The followed session's user and object path (nil: no session is active, or logind
    /// has not said).
    private var sessionUser: UInt32?
    private var followedSession: String?
    /// The user's own session: whether it is in front of its seat, as logind last said.
    private var active = true
    /// Called when what the loop must watch changes.
    public var onWatchChange: (_ old: BusService.Watch?, _ new: BusService.Watch?) -> Void = { _, _ in }

    public init(_ session: Session, logger: Logger, now: @escaping () -> Timestamp) {
        self.session = session
        self.logger = logger
        self.now = now
    }

    deinit {
        call.cancel()
    }

    /// Connects and asks; false when there is no system bus (said once; tried again only
    /// when it went away after being there).
    @discardableResult
    public func start() -> Bool {
        let connection: BusConnection
        do { connection = try BusConnection(.system) } catch {
            retryLater()
            return missing("cannot connect to the system bus (\(error))")
        }
        self.connection = connection
        connection.onWatchChange = { [unowned self] old, new in onWatchChange(old, new) }
        retryAt = nil
        backoff.reset()
        do throws(Errno) {
            try connection.matchSignal(sender: Logind.service, path: nil, interface: "org.freedesktop.DBus.Properties",
                                       member: "PropertiesChanged") { [unowned self] in propertiesChanged($0) }
            try connection.followOwner(of: Logind.service) { [unowned self] in ownerChanged($0) }
            try connection.matchSignal(sender: Logind.service, path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager",
                                       member: "PrepareForSleep") { [unowned self] in
                if let asleep = PeerMessage.prepareForSleep($0) { onInput(.sleeping(asleep, why: "logind: PrepareForSleep", at: now())) }
            }
        } catch {
            close()
            retryLater()
            return missing("cannot follow logind's signals (\(error))")
        }
        looking = false
        look()
        connection.updateWatch()
        return true
    }

    public func process() {
        guard let connection else {
            if let retryAt, monotonicMicroseconds() >= retryAt { start() }
            return
        }
        if let error = connection.process() {
            close()
            retryAt = monotonicMicroseconds()
            retryLater()
            silent("logind: the system bus went away (\(error))")
        }
    }

    /// Once the bus it was on went away, the next try; none before it ever was.
    private func retryLater() {
        guard retryAt != nil else { return }
        retryAt = backoff.next(after: monotonicMicroseconds())
    }

    public var nextDeadline: Int64? { connection?.nextDeadline ?? retryAt }
    public var currentWatch: BusService.Watch? { connection?.currentWatch }

    // MARK: Looking

    /// From the start: the session (through the seat or the user), then its lock; after
    /// the look under way, when there is one.
    private func look() {
        guard !looking else { lookAgain = true; return }
        looking = true
        switch session {
        case .seat:
            leadPath = Logind.seatPath
            ask(.logindSession(at: Logind.seatPath, "org.freedesktop.login1.Seat", "ActiveSession"), "the session") { [unowned self] in sessionFound($0) }
        case .ownUser(let uid):
            ask(.user(uid), "GetUser") { [unowned self] path in
                leadPath = path
                ask(.logindSession(at: path, "org.freedesktop.login1.User", "Display"), "the session") { [unowned self] in sessionFound($0) }
            }
        }
    }

    /// The look is done (answered or not): the next one asked for meanwhile starts.
    private func looked() {
        looking = false
        guard lookAgain else { return }
        lookAgain = false
        look()
    }

    /// The session's id and path ("/" for none).
    private func sessionFound(_ said: (id: String, path: String)) {
        let (id, found) = said
        if found == "/" {
            sessionPath = nil
            heard(false, why: "no session is active")
            heardSession(nil, nil)
            return looked()
        }
        if found != sessionPath { logger.info("logind: following the lock of session \(id)") }
        sessionPath = found
        ask(.sessionFlag(at: found, "LockedHint"), "LockedHint") { [unowned self] locked in
            heard(locked, why: "logind: LockedHint of \(found)")
            ask(.sessionUser(at: found), "the session's user") { [unowned self] uid in
                heardSession(uid, found)
                guard case .ownUser = session else { return looked() }
                ask(.sessionFlag(at: found, "Active"), "Active") { [unowned self] active in
                    heardActive(active, why: "logind: Active of \(found)")
                    looked()
                }
            }
        }
    }

    private func heardSession(_ uid: UInt32?, _ path: String?) {
        guard uid != sessionUser || path != followedSession else { return }
        sessionUser = uid
        followedSession = path
        let inFront = uid.flatMap { uid in path.map { SeatSession(id: $0, user: uid) } }
        onInput(.activeSession(inFront, why: "logind", at: now()))
    }

    /// The session's LockedHint is taken from the signal itself; a change of the seat or
    /// the user (another session in front), or a LockedHint only invalidated, is looked up.
    private func propertiesChanged(_ message: OpaquePointer) {
        guard let path = SDBus.path(message) else { return }
        if path == leadPath { return look() }
        guard path == sessionPath, let change = PeerMessage.propertiesChanged(message, wanted: ["LockedHint": "b", "Active": "b"]),
              change.interface == "org.freedesktop.login1.Session" else { return }
        if case .bool(let hint)? = change.values["LockedHint"] { heard(hint, why: "logind: LockedHint of \(path)") }
        if case .bool(let active)? = change.values["Active"], case .ownUser = session { heardActive(active, why: "logind: Active of \(path)") }
        if !change.invalidated.isEmpty { look() }
    }

    /// logind gone: silent; back: looked up again.
    private func ownerChanged(_ owner: String) {
        if owner.isEmpty { return silent("logind left the system bus") }
        look()
    }

    private func heardActive(_ active: Bool, why: String) {
        guard active != self.active else { return }
        self.active = active
        onInput(.sessionInFront(active, why: why, at: now()))
    }

    /// What logind said.
    private func heard(_ locked: Bool, why: String) {
        onInput(.locked(locked, why: why, at: now()))
    }

    /// An answer that is not what logind answers: nothing is learnt from it.
    private func unreadable(_ what: String) {
        silent("logind: cannot read \(what) from its answer")
        looked()
    }

    /// logind says nothing, and why.
    private func silent(_ why: String) {
        onInput(.logindSilent(why: why, at: now()))
    }

    private func missing(_ why: String) -> Bool {
        silent("logind: \(why)")
        return false
    }

    // MARK: Calls

    /// An error (no logind, no answer in time) teaches nothing: the lock stays as known,
    /// said once; nor does an answer that is not what logind answers (`what` names it).
    private func ask<Answer>(_ question: BusQuestion<Answer>, _ what: String, _ then: @escaping (Answer) -> Void) {
        guard let connection, let bus = connection.bus else { return looked() }
        let asked = call.ask(bus, question) { [unowned self] reply, answer in
            if let error = SDBus.error(of: reply) {
                _ = missing("logind does not answer (\(error))")
                return looked()
            }
            guard let answer else { return unreadable(what) }
            then(answer)
        }
        if !asked {
            _ = missing("cannot ask logind")
            looked()
        }
        connection.updateWatch()
    }

    private func close() {
        call.cancel()
        connection?.close()
        connection = nil
    }
}
