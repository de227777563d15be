#if canImport(Glibc)
import Glibc
#endif
import Effects
import Gestures
import Logging
import SystemIO
import SystemPackage
import TouchCore

/// `gestured agent`: the session's voice for a gestured that cannot hear the session
/// (the system service, on the system bus): it follows the desktop as the user service
/// would (`DesktopFollower`: sway, i3, Hyprland, X11), takes what the KWin script and the
/// GNOME Shell extension say on the session bus (`AgentRelay`), and reports the latest to
/// gestured (`AppReporter`), which takes it only while this user's session is the one in
/// front. One epoll loop; SIGTERM and SIGINT end it.
public final class SessionAgent {
    private let logger: Logger
    private let loop: EventLoop
    private let timer: FileDescriptor
    private let signals: FileDescriptor
    private let reporter: AppReporter
    private var sources: [BusSource] = []
    private var armedAt: Int64?
    /// --verbose's lines of each change: a caller flooding the relay cannot fill the log
    /// (20 at once, then 2 a second; those left out counted once a minute).
    private var changeLines = Allowance(burst: 20, perSecond: 2, reportEvery: 60_000_000, now: monotonicMicroseconds())

    public init(reportingTo kind: BusService.Kind, verbose: Bool) throws(Errno) {
        var logger = Logger(label: "gestured-agent") { _ in StderrLogHandler() }
        logger.logLevel = verbose ? .debug : .info
        self.logger = logger
        loop = try EventLoop(logger: logger)
        timer = try TimerFD.create()
        signals = try SignalFD.create([SIGTERM, SIGINT])
        reporter = AppReporter(kind, logger: logger)
        try loop.watch(timer) { [unowned self] in try? TimerFD.drain(timer) }
        try loop.watch(signals) { [unowned self] in
            while let signal = try? SignalFD.next(signals) {
                logger.info("stopping (signal \(signal))")
                loop.running = false
            }
        }
        watch(reporter, "the \(kind) bus")
        reporter.start()
        if kind == .system {
            let relay = AgentRelay(logger: logger)
            watch(relay, "the session bus")
            relay.onReport = { [unowned self] app, source in said(app, by: source) }
            relay.start()
        }
        // Where the windows are stays with the user service: ReportApp carries the application alone.
        DesktopFollower.followThisSession(logger: logger, watch: watch, onApp: { [unowned self] app, source in said(app, by: source) },
                                          onWindows: { _, _ in })
    }

    private func said(_ app: AppInFront?, by source: String) {
        let now = monotonicMicroseconds()
        if changeLines.take(now: now) {
            logger.debug("app in front: \(app.map { printable($0.description) } ?? "none") (\(printable(source, limit: 32)))")
        }
        if let unsaid = changeLines.dueReport(now: now) { logger.debug("\(unsaid) more changes of the application in front were not logged") }
        reporter.report(app, source: source)
    }

    private func watch(_ source: BusSource, _ what: String) {
        loop.follow(source, what)
        sources.append(source)
    }

    /// Runs until SIGTERM or SIGINT; the exit status.
    public func run() -> Int32 {
        SystemdNotify.send("READY=1")
        do {
            try loop.run { [unowned self] in afterWakeUp() }
        } catch {
            logger.error("epoll: \(error)")
            return 1
        }
        return 0
    }

    private func afterWakeUp() {
        let now = monotonicMicroseconds()
        for source in sources {
            if let deadline = source.nextDeadline, deadline <= now { source.process() }
        }
        do { try TimerFD.rearm(timer, at: sources.compactMap(\.nextDeadline).min(), now: now, armedAt: &armedAt) } catch {
            logger.error("timerfd: cannot arm: \(error)")
        }
    }
}
