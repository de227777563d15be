#if canImport(Glibc)
import Glibc
#endif
import Bindings
import Config
import Effects
import Gestures
import Logging
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
    private let loop: EventLoop
    private let timer: FileDescriptor
    private let signals: FileDescriptor
    private let reporter: AppReporter
    private let runner: CommandRunner
    private var follower: UserConfigFollower?
    /// The overlay, made at the first update gestured sends (`overlay = true`): drawn by
    /// GNOME Shell's extension in a GNOME Wayland session, by the layer-shell helper in
    /// another Wayland session, on the X display in an X11 one.
    private var overlay: X11Overlay?
    private var layerOverlay: WaylandOverlay?
    private var shellOverlay = false
    /// The agent's name on the session bus (only beside the system service).
    private var relay: AgentRelay?
    private var noOverlay = false
    private var sources: [BusSource] = []
    private var armedAt: Int64?
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
        loop = try EventLoop(logger: logger)
        timer = try TimerFD.create()
        signals = try SignalFD.create([SIGTERM, SIGINT, SIGHUP, SIGCHLD])
        reporter = AppReporter(kind, logger: logger)
        runner = CommandRunner(timeoutMilliseconds: Int64(DaemonSettings().commandTimeoutMS), logger: logger)
        runner.onOutputClosed = { [unowned self] fd in loop.unwatch(fd) }
        try loop.watch(timer) { [unowned self] in try? TimerFD.drain(timer) }
        try loop.watch(signals) { [unowned self] in handleSignals() }
        watch(reporter, "the \(kind) bus")
        reporter.start()
        if kind == .system {
            let relay = AgentRelay(logger: logger)
            watch(relay, "the session bus")
            relay.onReport = { [unowned self] app, source in said(app, by: source) }
            relay.onWindows = { [unowned self] windows, source in reporter.report(windows, source: source) }
            relay.start()
            self.relay = relay
            if let configPath {
                let handOver = ConfigHandOver(logger: logger)
                let notifier = Notifier(logger: logger)
                watch(handOver, "the system bus")
                watch(notifier, "the session bus")
                handOver.onFeedback = { [unowned self] frame in draw(frame) }
                handOver.onAct = { [unowned self] binding, kind, environment in
                    switch kind {
                    case .command: act(binding, environment)
                    case .signal: emit(binding, environment, on: relay)
                    }
                }
                handOver.start()
                let follower = UserConfigFollower(path: configPath, handOver: handOver, notifier: notifier, logger: logger)
                follower.watchOutput = { [unowned self] fd, handler in
                    do { try loop.watch(fd, handler) } catch { logger.error("cannot watch the parsing helper: \(error)") }
                }
                follower.unwatchOutput = { [unowned self] fd in loop.unwatch(fd) }
                if let fileWatch = follower.fileWatch {
                    try loop.watch(fileWatch.fd) { [unowned self] in self.follower?.fileEvents(now: monotonicMicroseconds()) }
                }
                self.follower = follower
            }
        }
        DesktopFollower.followThisSession(logger: logger, watch: watch, onApp: { [unowned self] app, source in said(app, by: source) },
                                          onWindows: { [unowned self] windows, source in reporter.report(windows, source: source) })
    }

    private func handleSignals() {
        while let signal = try? SignalFD.next(signals) {
            switch signal {
            case SIGCHLD:
                while let (pid, status) = (try? Spawn.reap()) ?? nil {
                    if follower?.helperExited(pid: pid, status: status) != true { runner.exited(pid: pid, status: status, now: monotonicMicroseconds()) }
                }
            case SIGHUP:
                follower?.look(now: monotonicMicroseconds(), force: true)
            default:
                logger.info("stopping (signal \(signal))")
                loop.running = false
            }
        }
    }

    /// gestured says one of this user's gestures fired: its command, from the
    /// configuration gestured took, runs as the user with the gesture's variables.
    private func act(_ binding: String, _ environment: [String]) {
        guard let bound = follower?.taken?.bindings.first(where: { $0.gesture == binding }) else {
            return logger.warning("gestured says \(printable(binding, limit: 64)) fired, which is no gesture of the configuration it took; nothing is run")
        }
        guard let command = bound.actions.commandForm else { return }
        let action = CommandAction(binding: bound.gesture, command: command, environment: environment, maxRunning: bound.maxRunning)
        guard let output = runner.start(action, now: monotonicMicroseconds()) else { return }
        do { try loop.watch(output) { [unowned self] in runner.readOutput(output, now: monotonicMicroseconds()) } } catch {
            logger.error("cannot watch \(binding)'s output: \(error)")
        }
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

    /// An overlay update from gestured: drawn on this session's screen. In GNOME Shell on
    /// Wayland, which has no layer shell, by its gestured extension (passed on over the
    /// session bus); in another Wayland session (`$WAYLAND_DISPLAY`) by the layer-shell
    /// helper; in an X11 one (`$DISPLAY` alone) on the X display; elsewhere, or when that
    /// fails, said once.
    private func draw(_ frame: FeedbackFrame) {
        if overlay == nil, layerOverlay == nil, !shellOverlay, !noOverlay {
            noOverlay = true
            do {
                let wayland = Environment.value("WAYLAND_DISPLAY").map { !$0.isEmpty } ?? false
                let desktops = (Environment.value("XDG_CURRENT_DESKTOP") ?? "").split(separator: ":")
                if wayland, desktops.contains("GNOME") {
                    guard relay != nil else { return logger.warning("overlay: GNOME Shell's extension draws it, but the agent has no session bus to reach it; none is drawn") }
                    shellOverlay = true
                    logger.info("overlay: GNOME Shell draws it, through gestured's extension (enable it if it is not)")
                } else if wayland {
                    let made = try WaylandOverlay()
                    layerOverlay = made
                    try loop.watch(made.output) { [unowned self, unowned made] in
                        let (words, ended) = made.read()
                        guard ended else { return }
                        logger.warning("overlay: \(WaylandOverlay.helper) ended\(words.isEmpty ? "" : ": \(printable(words, limit: 512))"); none is drawn")
                        loop.unwatch(made.output)
                        layerOverlay = nil
                        noOverlay = true
                    }
                } else if let display = Environment.value("DISPLAY"), !display.isEmpty {
                    let made = try X11Overlay(display: display)
                    overlay = made
                    watchOverlay(made)
                } else {
                    return logger.warning("overlay: gestured sends its updates, but this session has no display the agent knows")
                }
                noOverlay = false
            } catch {
                return logger.warning("overlay: \(error); none is drawn")
            }
        }
        overlay?.draw(frame, now: monotonicMicroseconds())
        layerOverlay?.draw(frame)
        if shellOverlay { relay?.feedback(frame, to: "org.gnome.Shell") }
    }

    /// The overlay's descriptor: the connecting thread's, then the X socket's.
    private func watchOverlay(_ overlay: X11Overlay) {
        let watched = overlay.fd
        do {
            try loop.watch(watched) { [unowned self, unowned overlay] in
                do { try overlay.readable() } catch {
                    logger.warning("overlay: \(error); none is drawn")
                    loop.unwatch(overlay.fd)
                    self.overlay = nil
                    noOverlay = true
                    return
                }
                if overlay.fd != watched {
                    loop.unwatch(watched)
                    watchOverlay(overlay)
                }
            }
        } catch {
            logger.warning("overlay: cannot watch the X connection (\(error)); none is drawn")
        }
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
        follower?.look(now: now)
        follower?.enforceTimeout(now: now)
        overlay?.process(now: now)
        runner.enforceTimeouts(now: now)
        for source in sources {
            if let deadline = source.nextDeadline, deadline <= now { source.process() }
        }
        let due = (sources.compactMap(\.nextDeadline) + [follower?.nextDeadline, runner.nextDeadline, overlay?.nextDeadline].compactMap { $0 }).min()
        do { try TimerFD.rearm(timer, at: due, now: now, armedAt: &armedAt) } catch {
            logger.error("timerfd: cannot arm: \(error)")
        }
    }
}
