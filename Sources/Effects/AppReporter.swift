import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Gestures
import Logging
import SystemIO
import SystemPackage

/// The session agent's side of ReportApp and ReportWindows: says to the gestured on
/// `kind`'s bus which application is in front and where the windows are, the latest
/// only of each (a newer report cancels one unanswered), at most 5 applications and 4
/// layouts a second (within the 10 reports gestured takes from a caller: a burst of
/// focus changes, a window dragged, ends with its last said), and says both again
/// whenever that gestured comes on the bus (started, restarted) or asks (AppWanted:
/// another session came in front, maybe this one again). Its refusals (another user's
/// session in front) are logged once until one is taken. The bus going away is tried
/// again after 5 s, doubling to a minute.
public final class AppReporter: BusSource {
    private let kind: BusService.Kind
    private let logger: Logger
    private var connection: BusConnection?
    /// What is in front now, and where the windows are: each said on its own.
    private let app = Latest(spacing: 200_000)
    private let windows = Latest(spacing: 250_000)
    private var saidRefusal = false
    private var retryAt: Int64?
    private var backoff = Backoff(first: 5_000_000)
    public var onWatchChange: (_ old: BusService.Watch?, _ new: BusService.Watch?) -> Void = { _, _ in }

    public init(_ kind: BusService.Kind, logger: Logger) {
        self.kind = kind
        self.logger = logger
    }

    public func start() {
        do {
            let connection = try BusConnection(kind)
            connection.onWatchChange = { [unowned self] old, new in onWatchChange(old, new) }
            try connection.followOwner(of: BusService.name) { [unowned self] owner in
                if !owner.isEmpty { sendBothSoon() }
            }
            try connection.matchSignal(sender: BusService.name, path: BusService.path, interface: BusService.interface,
                                       member: AppWanted.member) { [unowned self] _ in sendBothSoon() }
            self.connection = connection
            retryAt = nil
            backoff.reset()
            sendBothSoon()
            connection.updateWatch()
        } catch {
            retryLater("cannot connect to the \(kind) bus (\(error))")
        }
    }

    private func retryLater(_ why: String) {
        logger.warning("\(why); tried again in \(backoff.delay / 1_000_000) s")
        retryAt = backoff.next(after: monotonicMicroseconds())
    }

    /// The application in front now (nil: none), from `source`.
    public func report(_ app: AppInFront?, source: String) {
        self.app.report = { AppReport(source: app?.source ?? source, appID: app?.appID ?? "", windowClass: app?.windowClass ?? "", instance: app?.instance ?? "") }
        sendSoon(self.app)
    }

    /// Where the windows are now (nil: not known), from `source`; written out when sent.
    public func report(_ layout: WindowLayout?, source: String) {
        windows.report = { WindowsReport(source: source, layout: layout) }
        sendSoon(windows)
    }

    private func sendBothSoon() {
        sendSoon(app)
        sendSoon(windows)
    }

    private func sendSoon(_ latest: Latest) {
        let now = monotonicMicroseconds()
        if latest.pace.sendsNow(at: now) { send(latest, now: now) }
    }

    private func send(_ latest: Latest, now: Int64) {
        guard let report = latest.report, let connection, let bus = connection.bus else { return latest.pace.sent(at: nil) }
        latest.pace.sent(at: now)
        latest.call.ask(bus, .gestured(report())) { [unowned self] reply, _ in
            answered(latest, reply)
        }
        connection.updateWatch()
    }

    private func answered(_ latest: Latest, _ reply: OpaquePointer) {
        guard let error = SDBus.error(of: reply) else {
            latest.pace.answered()
            if latest === app, saidRefusal {
                logger.info("gestured takes the application in front again")
                saidRefusal = false
            }
            return
        }
        // No gestured on the bus yet is no refusal: it is told when it comes.
        let name = SDBus.errorName(of: reply) ?? ""
        guard !name.hasSuffix(".ServiceUnknown"), !name.hasSuffix(".NameHasNoOwner") else { return }
        if BusService.asksAgain(name) { return latest.pace.sendsAgainAtOnce() ? send(latest, now: monotonicMicroseconds()) : sendSoon(latest) }
        latest.pace.answered()
        // Refusals are said of the application: both come from the same session.
        guard latest === app else { return }
        if !saidRefusal { logger.warning("gestured refuses the application in front: \(error)") }
        saidRefusal = true
    }

    public var nextDeadline: Int64? {
        guard let connection else { return retryAt }
        return [connection.nextDeadline, app.pace.due, windows.pace.due].compactMap { $0 }.min()
    }

    public func process() {
        guard let connection else {
            if let retryAt, monotonicMicroseconds() >= retryAt { start() }
            return
        }
        for latest in [app, windows] where latest.pace.isDue(at: monotonicMicroseconds()) { send(latest, now: monotonicMicroseconds()) }
        if let error = connection.process() {
            self.connection = nil
            retryLater("the \(kind) bus went away (\(error))")
        }
    }
}

/// One report said again and again, the latest only: the report (made when sent; nil:
/// nothing to say yet), the call in flight and its pace.
private final class Latest {
    var report: (() -> any GesturedMessage)?
    let call = PendingCall()
    var pace: SendPace

    init(spacing: Int64) { pace = SendPace(spacing: spacing) }
}
