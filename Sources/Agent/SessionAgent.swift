#if canImport(Glibc)
import Glibc
#endif
import Bindings
import Config
import Effects
import Gestures
import Logging
import Loop
import Pipeline
import SystemIO
import SystemPackage
import TouchCore

/// `gestured agent`: the session's hands for the system service, which reads the
/// touchscreens but cannot reach a session. It hands gestured its user's configuration
/// (`UserConfigFollower`, `ConfigHandOver`) and runs that user's commands when gestured
/// says one of their gestures fired (Act: the binding and the gesture's variables), as
/// the user, in this session's environment (`CommandRunner`). It says which application
/// is in front and where the windows are: it follows the desktop as the user service
/// would (`DesktopFollower`: sway, i3, Hyprland, X11), takes what the KWin script and the
/// GNOME Shell extension say on the session bus (`AgentRelay`), and reports the latest
/// (`AppReporter`). gestured
/// takes all of it only while this user's session is the one in front. One epoll loop;
/// SIGHUP reads the configuration again at once; SIGTERM and SIGINT end it.
public final class SessionAgent {
    private let logger: Logger
    private let runtime: Runtime
    private let reporter: AppReporter
    private var follower: UserConfigFollower?
    /// The agent's name on the session bus (only beside the system service).
    private var relay: AgentRelay?
    private var overlay: SessionOverlay?
    /// --verbose's lines of each change: a caller flooding the relay cannot fill the log
    /// (20 at once, then 2 a second; those left out counted once a minute).
    private var changeLines = Allowance(burst: 20, perSecond: 2, reportEvery: 60_000_000, now: monotonicMicroseconds())

    /// `$XDG_CONFIG_HOME/gestured/gestured.toml`, else under `$HOME/.config`.
    public static var defaultConfigPath: String? {
        if let config = Environment.value("XDG_CONFIG_HOME"), config.hasPrefix("/") { return config + "/gestured/gestured.toml" }
        guard let home = Environment.value("HOME"), home.hasPrefix("/") else { return nil }
        return home + "/.config/gestured/gestured.toml"
    }

    /// `configPath`: the user's configuration (nil: none to hand over).
    public init(reportingTo kind: BusService.Kind, configPath: String?, verbose: Bool) throws(Errno) {
        var logger = Logger(label: "gestured-agent") { _ in StderrLogHandler() }
        logger.logLevel = verbose ? .debug : .info
        self.logger = logger
        runtime = try Runtime(logger: logger, commandTimeoutMS: DaemonSettings().commandTimeoutMS)
        reporter = AppReporter(kind, logger: logger)
        runtime.onSignal = { [unowned self] signal in
            if signal == SIGHUP { return follower?.look(now: monotonicMicroseconds(), force: true) ?? () }
            logger.info("stopping (signal \(signal))")
            runtime.stop()
        }
        runtime.afterWakeUp = { [unowned self] in afterWakeUp(now: $0) }
        runtime.follow(reporter, "the \(kind) bus")
        reporter.start()
        if kind == .system {
            let relay = AgentRelay(logger: logger)
            runtime.follow(relay, "the session bus")
            relay.onReport = { [unowned self] app, source in said(app, by: source) }
            relay.onWindows = { [unowned self] windows, source in reporter.report(windows, source: source) }
            relay.start()
            self.relay = relay
            overlay = SessionOverlay(runtime: runtime, relay: relay, logger: logger)
            if let configPath {
                let handOver = ConfigHandOver(logger: logger)
                let notifier = Notifier(logger: logger)
                runtime.follow(handOver, "the system bus")
                runtime.follow(notifier, "the session bus")
                handOver.onFeedback = { [unowned self] frame in overlay?.draw(frame) }
                handOver.onProgress = { update in relay.progress(update) }
                handOver.onAct = { [unowned self] binding, kind, environment in
                    switch kind {
                    case .command: act(binding, environment)
                    case .signal: emit(binding, environment, on: relay)
                    }
                }
                handOver.start()
                let follower = UserConfigFollower(path: configPath, runtime: runtime, handOver: handOver, notifier: notifier, logger: logger)
                if let fileWatch = follower.fileWatch {
                    runtime.watch(fileWatch.fd, "the configuration's directory") { [unowned self] in self.follower?.fileEvents(now: monotonicMicroseconds()) }
                }
                self.follower = follower
            }
        }
        DesktopFollower.followThisSession(logger: logger, watch: runtime.follow, onApp: { [unowned self] app, source in said(app, by: source) },
                                          onWindows: { [unowned self] windows, source in reporter.report(windows, source: source) })
    }

    /// gestured says one of this user's gestures fired: its command, from the
    /// configuration gestured took, runs as the user with the gesture's variables.
    private func act(_ binding: String, _ environment: [String]) {
        guard let bound = follower?.taken?.bindings.first(where: { $0.gesture == binding }) else {
            return logger.warning("gestured says \(printable(binding, limit: 64)) fired, which is no gesture of the configuration it took; nothing is run")
        }
        guard let command = bound.actions.commandForm else { return }
        runtime.start(CommandAction(binding: bound.gesture, command: command, environment: environment, maxRunning: bound.maxRunning))
    }

    /// gestured says one of this user's gestures fired whose binding emits its signal: on
    /// the session bus, where the user's programs listen.
    private func emit(_ binding: String, _ environment: [String], on relay: AgentRelay) {
        guard let config = follower?.taken, config.bindings.contains(where: { $0.gesture == binding && $0.actions.signal }),
              let (event, device, step) = GestureEnvironment.event(from: environment), event.name == binding else {
            return logger.warning("gestured says \(printable(binding, limit: 64))'s signal is due, which is no signal of the configuration it took; nothing is emitted")
        }
        relay.emit(event, device: device, step: step)
    }

    private func said(_ app: AppInFront?, by source: String) {
        let now = monotonicMicroseconds()
        if changeLines.take(now: now) {
            logger.debug("app in front: \(app.map { printable($0.description) } ?? "none") (\(printable(source, limit: 32)))")
        }
        if let unsaid = changeLines.dueReport(now: now) { logger.debug("\(unsaid) more changes of the application in front were not logged") }
        reporter.report(app, source: source)
    }

    /// Runs until SIGTERM or SIGINT; the exit status.
    public func run() -> Int32 {
        do { try runtime.run() } catch {
            logger.error("epoll: \(error)")
            return 1
        }
        return 0
    }

    private func afterWakeUp(now: Int64) -> Int64? {
        follower?.look(now: now)
        overlay?.process(now: now)
        return [follower?.nextDeadline, overlay?.nextDeadline].compactMap { $0 }.min()
    }
}
