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
    private let call = PendingCall()
    private let windowsCall = PendingCall()
    /// What is in front now, and who says (the desktop's name).
    private var current: (app: AppInFront?, source: String)?
    /// Where the windows are now, as a desktop said it.
    private var windows: WindowsReport?
    private var saidRefusal = false
    private var retryAt: Int64?
    private var backoff = Backoff(first: 5_000_000)
    /// At most 5 reports of the application a second, and 4 of the windows.
    private var pace = SendPace(spacing: 200_000)
    private var windowsPace = SendPace(spacing: 250_000)
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
                                       member: "AppWanted") { [unowned self] _ in sendBothSoon() }
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
        current = (app, source)
        sendSoon()
    }

    /// Where the windows are now (nil: not known), from `source`.
    public func report(_ layout: WindowLayout?, source: String) {
        windows = WindowsReport(source: source, layout: layout)
        sendWindowsSoon()
    }

    private func sendBothSoon() {
        sendSoon()
        sendWindowsSoon()
    }

    private func sendSoon() {
        let now = monotonicMicroseconds()
        if pace.sendsNow(at: now) { send(now: now) }
    }

    private func sendWindowsSoon() {
        let now = monotonicMicroseconds()
        if windowsPace.sendsNow(at: now) { sendWindows(now: now) }
    }

    private func send(now: Int64) {
        guard let current, let connection, let bus = connection.bus else { return pace.sent(at: nil) }
        pace.sent(at: now)
        let app = current.app
        let fields = [app?.source ?? current.source, app?.appID ?? "", app?.windowClass ?? "", app?.instance ?? ""]
        call.ask(bus, BusService.name, BusService.path, BusService.interface, "ReportApp", strings: fields) { [unowned self] reply in
            if let error = SDBus.error(of: reply) {
                // No gestured on the bus yet is no refusal: it is told when it comes.
                let name = SDBus.errorName(of: reply) ?? ""
                guard !name.hasSuffix(".ServiceUnknown"), !name.hasSuffix(".NameHasNoOwner") else { return }
                if BusService.asksAgain(name) { return pace.sendsAgainAtOnce() ? send(now: monotonicMicroseconds()) : sendSoon() }
                pace.answered()
                if !saidRefusal { logger.warning("gestured refuses the application in front: \(error)") }
                saidRefusal = true
            } else {
                pace.answered()
                if saidRefusal { logger.info("gestured takes the application in front again") }
                saidRefusal = false
            }
        }
        connection.updateWatch()
    }

    private func sendWindows(now: Int64) {
        guard let windows, let connection, let bus = connection.bus else { return windowsPace.sent(at: nil) }
        windowsPace.sent(at: now)
        windowsCall.ask(bus, BusService.name, BusService.path, BusService.interface, "ReportWindows",
                        strings: windows.arguments) { [unowned self] reply in
            guard let name = SDBus.errorName(of: reply) else { return windowsPace.answered() }
            // Refusals are the application's to say: both come from the same session.
            guard !name.hasSuffix(".ServiceUnknown"), !name.hasSuffix(".NameHasNoOwner") else { return }
            if BusService.asksAgain(name) {
                return windowsPace.sendsAgainAtOnce() ? sendWindows(now: monotonicMicroseconds()) : sendWindowsSoon()
            }
            windowsPace.answered()
        }
        connection.updateWatch()
    }

    public var nextDeadline: Int64? {
        guard let connection else { return retryAt }
        return [connection.nextDeadline, pace.due, windowsPace.due].compactMap { $0 }.min()
    }

    public func process() {
        guard let connection else {
            if let retryAt, monotonicMicroseconds() >= retryAt { start() }
            return
        }
        if pace.isDue(at: monotonicMicroseconds()) { send(now: monotonicMicroseconds()) }
        if windowsPace.isDue(at: monotonicMicroseconds()) { sendWindows(now: monotonicMicroseconds()) }
        if let error = connection.process() {
            self.connection = nil
            retryLater("the \(kind) bus went away (\(error))")
        }
    }
}
