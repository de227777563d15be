import Bindings
import Config
import Effects
#if canImport(Glibc)
import Glibc
#endif
import Input
import Logging
import Pipeline
import SystemIO
import SystemPackage
import TouchCore

/// The daemon: one epoll loop over the input, a timerfd for the earliest deadline
/// (recognizers, the replay, command timeouts), a signalfd (SIGTERM/SIGINT stop, SIGHUP
/// reloads, SIGCHLD reaps), the bus and the commands' output. Each touchscreen's
/// pipeline decides; the daemon only performs the actions and arms the timer.
public final class Daemon {
    let options: DaemonOptions
    var logger: Logger
    let loop: EventLoop
    let timer: FileDescriptor
    let signals: FileDescriptor
    var config: Configuration
    /// The mode, the pause and the lock: what every pipeline's gate is.
    var control: ModeController
    let runner: CommandRunner
    var bus: BusService?
    /// The virtual keyboard and pointer, while bindings need them.
    var virtual: VirtualDevices?
    /// By event node; a replay's is its path.
    var touchscreens: [String: Touchscreen] = [:] {
        didSet { bus?.announce([.devices]) }
    }
    var replay: RecordingSource?
    /// The touchscreen the replay stands in for.
    var replayScreen: Touchscreen? {
        guard case .recording(let path, _, _) = options.source else { return nil }
        return touchscreens[path]
    }
    var udev: Udev?
    /// Whether the session is locked, for live touchscreens.
    var logind: LogindWatcher?
    /// monitor: the running service's mode, pause and lock.
    var service: ServiceFollower?
    /// The display's rotation, for panels whose rotation is auto or
    /// external: from iio-sensor-proxy, or set on the bus.
    var displayRotation = QuarterTurn.upright
    var sensor: SensorProxyWatcher?
    /// The node `--device` names: the only one read.
    var onlyNode: String?
    var saidWaiting = false
    /// Touchscreens udev reports that could not be opened (permissions, errors).
    var unopened = Set<String>()
    /// WATCHDOG_USEC/2 when systemd watches us, and when the next ping is due.
    var watchdogInterval: Int64?
    var nextWatchdog: Int64 = .max
    /// When the timer is set to fire (nil: disarmed), so that it is set only when that changes.
    private var armedAt: Int64?
    /// A SIGHUP's configuration being parsed by its helper, and whether another came meanwhile.
    var pendingReload: PendingReload?
    var reloadAgain = false
    /// The control interface's Reload calls, answered when it is applied or rejected.
    var reloadCallers: [(BusControlError?) -> Void] = []
    /// A step is being performed: a gate it changes reaches the pipelines once it ends.
    var feeding = false
    var controlLines = Daemon.controlLineAllowance(now: monotonicMicroseconds())
    /// When the gate changed (monotonic) and the pipelines have not been given it yet.
    var gateChanged: Int64?

    public init(options: DaemonOptions) throws {
        self.options = options
        logger = Logger(label: "gestured") { _ in StderrLogHandler() }
        // Blocked before the configuration is read: a SIGHUP while a large one loads
        // (systemctl reload right after start) waits for the loop instead of killing.
        signals = try SignalFD.create([SIGTERM, SIGINT, SIGHUP, SIGCHLD])
        config = try Self.loadConfig(options.configPath, logger: logger)
        control = ModeController(config)
        loop = try EventLoop(logger: logger)
        timer = try TimerFD.create()
        runner = CommandRunner(timeoutMilliseconds: Int64(config.daemon.commandTimeoutMS), logger: logger)
        runner.onOutputClosed = { [unowned self] fd in loop.unwatch(fd) }
        try apply(config)
        try loop.watch(timer) { [unowned self] in
            do { try TimerFD.drain(timer) } catch { logger.error("timerfd: \(error)") }
        }
        try loop.watch(signals) { [unowned self] in handleSignals() }
    }

    /// Runs until stopped (live) or until the recording, its decisions and its commands
    /// are done (replay); returns the exit status.
    public func run() -> Int32 {
        do {
            switch options.source {
            case .recording(let path, let speed, let rounds): try startReplay(path, speed: speed, rounds: rounds)
            case .touchscreens(let only): startLive(only: only)
            }
            watchdogInterval = SystemdNotify.watchdogInterval.map { $0 / 2 }
            SystemdNotify.send("READY=1")
            afterWakeUp()
            try loop.run { afterWakeUp() }
            // The last signals of a replay, or those just before a stop, still go out: a
            // quarter of a second at most, which a bus flooded with calls takes whole.
            bus?.finish(within: 250_000, now: monotonicMicroseconds)
        } catch {
            logger.error("\(error)")
            return 1
        }
        return 0
    }

    // MARK: Configuration

    static func loadConfig(_ path: String?, logger: Logger) throws -> Configuration {
        guard let path else { return Configuration.makeDefault() }
        let (config, warnings) = try loadDaemonConfiguration(path)
        for warning in warnings { logger.warning("\(warning)") }
        return config
    }

    /// The daemon-wide settings: log level, command limits and user, the bus.
    func apply(_ config: Configuration) throws {
        self.config = config
        if let change = control.reconfigure(config, at: now) { controlChanged([change]) }
        logger.logLevel = options.logLevel ?? Self.level(config.daemon.logLevel)
        runner.logger.logLevel = logger.logLevel
        runner.timeoutMilliseconds = Int64(config.daemon.commandTimeoutMS)
        runner.user = Users.effectiveID == 0 ? try config.daemon.user.flatMap(Users.lookUp) : nil
        let wanted = options.mode == .monitor ? .none : options.bus ?? config.daemon.bus
        let kind: BusService.Kind? = wanted == .system ? .system : wanted == .session ? .session : nil
        if bus?.kind != kind {
            if let old = bus {
                // A Reload call that changes the bus came on the one about to go: it is
                // answered there (the reload is applied), before that one closes.
                answerReloadCallers(nil, busGoing: true)
                old.finish(within: 200_000, now: monotonicMicroseconds)
            }
            if let old = bus?.currentWatch { loop.unwatch(old.fd) }
            bus = kind.map { BusService(kind: $0, logger: logger) }
            bus?.onWatchChange = { [unowned self] old, new in
                rewatch(old, new, "the bus") { [unowned self] in bus?.process(now: monotonicMicroseconds()) }
            }
            bus?.control = self
            bus?.connect(now: monotonicMicroseconds())
        }
        bus?.announce([.modes, .gestures])
        makeOrRemoveVirtualDevices(for: config)
        if case .touchscreens = options.source, sensor == nil, config.followsAccelerometer { followTheAccelerometer() }
        for screen in touchscreens.values { screen.pipeline.explaining = explaining }
    }

    /// Whether the pipelines say why: for the debug log, and whenever steps are shown.
    var explaining: Bool { options.showStep != nil || logger.logLevel <= .debug }

    private static func level(_ level: DaemonSettings.LogLevel) -> Logger.Level {
        switch level {
        case .debug: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
    }

    // MARK: Steps and actions

    /// Feeds one input to a touchscreen's pipeline and does what its steps say.
    func feed(_ input: PipelineInput, to screen: Touchscreen) {
        // A pen's step feeds its touchscreen from within: only the outermost spreads.
        let outer = feeding
        feeding = true
        screen.pipeline.step(input) { perform($0, of: screen) }
        feeding = outer
        if !outer { spreadGate() }
    }

    /// Gives every touchscreen the gate in force, in force at once (see
    /// `TouchscreenPipeline`) from when it changed; a gesture of theirs that changes it
    /// again is given too.
    func spreadGate() {
        feeding = true
        defer { feeding = false }
        while let monotonic = gateChanged {
            gateChanged = nil
            for screen in touchscreens.values {
                screen.pipeline.step(.gate(control.gate, at: screen.deviceTime(monotonic))) { perform($0, of: screen) }
            }
        }
    }

    private func perform(_ step: Step, of screen: Touchscreen) {
        if let show = options.showStep, !step.isQuiet { show(screen.node, screen.pipeline.geometry, step) }
        for bug in step.bugs { logger.error("\(screen.name): bug: \(bug)") }
        if let near = step.penNear { penMoved(near, on: screen) }
        // Modes and pauses are decisions, not effects: monitor follows them too.
        if !step.events.isEmpty { control.gestureFired(at: now) }
        controlChanged(step.actions.compactMap { control.perform($0, at: now) }, by: (screen, step.input.time))
        guard options.mode == .service else { return }
        // What someone waits for first (signals, commands, the twin), the log after.
        for action in step.actions { perform(action) }
        if let twin = screen.twin, !step.twin.isEmpty {
            do { try twin.write(step.twin) } catch { logger.error("\(screen.node): cannot write to its twin: \(error)") }
        }
        for t in step.transitions {
            logger.debug("\(screen.name): \(t.gesture): \(t.from.rawValue) → \(t.to.rawValue): \(t.reason)")
        }
        for event in step.events where event.phase != .changed {
            logger.info("\(screen.name): \(event.name) (\(event.type.rawValue)) \(event.phase.rawValue), \(event.fingers) finger(s)")
        }
        for note in step.delivery {
            logger.debug("\(screen.name): twin: \(note.summary): \(note.reason)")
        }
    }

    private func perform(_ action: Action) {
        switch action {
        case .signal(let event, let device, let step):
            bus?.emit(event, device: device, step: step, now: monotonicMicroseconds())
        case .keys(let binding, let keys):
            logger.debug("\(binding): keys \(keys.text)")
            virtualInput(binding) { (devices) throws(Errno) in try devices.press(keys) }
        case .click(let binding, let click, let location):
            logger.debug("\(binding): \(click.count == 2 ? "double " : "")\(click.button.rawValue) click at x=\(fixed(location.x, decimals: 4)) y=\(fixed(location.y, decimals: 4))")
            virtualInput(binding) { (devices) throws(Errno) in try devices.click(click, at: location, now: monotonicMicroseconds()) }
        case .scroll(let turn):
            logger.debug("\(turn.binding): wheel \(turn.vertical) up, \(turn.horizontal) right (120 a notch)")
            virtualInput(turn.binding) { (devices) throws(Errno) in try devices.scroll(turn) }
        case .mode, .pause:
            break  // the controller's (see perform(_:of:))
        case .run(let command):
            guard let output = runner.start(command, now: monotonicMicroseconds()) else { return }
            watch(output, "\(command.binding)'s output") { [unowned self] in runner.readOutput(output, now: monotonicMicroseconds()) }
        }
    }

    /// A bus connection's descriptor, or whether it waits to write, changed.
    func rewatch(_ old: BusService.Watch?, _ new: BusService.Watch?, _ what: String, _ handler: @escaping () -> Void) {
        if let old, old.fd != new?.fd { loop.unwatch(old.fd) }
        guard let new else { return }
        if old?.fd == new.fd {
            loop.setWritable(new.fd, new.writable)
        } else {
            watch(new.fd, what, writable: new.writable, handler)
        }
    }

    func watch(_ fd: FileDescriptor, _ what: String, writable: Bool = false, first: Bool = false, _ handler: @escaping () -> Void) {
        do { try loop.watch(fd, writable: writable, first: first, handler) } catch { logger.error("cannot watch \(what): \(error)") }
    }

    // MARK: The loop

    /// After every wake-up: due replay events and deadlines, then the timer for the next one.
    func afterWakeUp() {
        let now = monotonicMicroseconds()
        let replayBehind = feedReplay(now: now)
        for screen in touchscreens.values where !(replayBehind && screen === replayScreen) {
            if let deadline = screen.nextDeadline, deadline <= now { feed(.deadline(screen.deviceTime(now)), to: screen) }
        }
        runner.enforceTimeouts(now: now)
        if let due = controlDeadline, due <= now { controlChanged(control.advance(to: self.now)) }
        reportUnsaidControlLines(now: now)
        if let deadline = virtual?.nextDeadline, deadline <= now { virtualInput("a double click") { (devices) throws(Errno) in try devices.writeDue(now: now) } }
        enforceReloadTimeout(now: now)
        if let deadline = bus?.nextDeadline, deadline <= now { bus?.process(now: now) }
        if let deadline = logind?.nextDeadline, deadline <= now { logind?.process() }
        if let deadline = service?.nextDeadline, deadline <= now { service?.process() }
        if let deadline = sensor?.nextDeadline, deadline <= now { sensor?.process() }
        if let watchdogInterval, now >= nextWatchdog || nextWatchdog == .max {
            SystemdNotify.send("WATCHDOG=1")
            nextWatchdog = now + watchdogInterval
        }
        if case .recording = options.source, replay?.isFinished ?? true, touchscreens.values.allSatisfy({ $0.nextDeadline == nil }), runner.isIdle,
           virtual?.nextDeadline == nil,
           pendingReload == nil {
            logger.info("replay finished")
            loop.running = false
            return
        }
        var next: Int64?
        func consider(_ time: Int64?) {
            if let time, time < next ?? .max { next = time }
        }
        if let screen = replayScreen { consider(replay?.nextTime.map(screen.monotonic)) }
        consider(runner.nextDeadline)
        consider(controlDeadline)
        consider(virtual?.nextDeadline)
        consider(pendingReload?.deadline)
        consider(bus?.nextDeadline)
        consider(logind?.nextDeadline)
        consider(service?.nextDeadline)
        consider(sensor?.nextDeadline)
        if watchdogInterval != nil { consider(nextWatchdog) }
        for screen in touchscreens.values { consider(screen.nextDeadline) }
        // Most wake-ups (a frame) leave the timer as it was: no system call then. One armed
        // for a time now past has fired (or is about to), so it is set again regardless.
        if next == armedAt, (armedAt ?? .max) > now { return }
        do {
            try TimerFD.arm(timer, atMicroseconds: next)
            armedAt = next
        } catch {
            logger.error("timerfd: cannot arm: \(error)")
        }
    }

    /// Every exited child: a command's, or the reload's parsing helper.
    private func reapChildren() {
        while true {
            let exited: (pid: pid_t, status: Spawn.ExitStatus)?
            do { exited = try Spawn.reap() } catch {
                return logger.error("waitpid: \(error)")
            }
            guard let (pid, status) = exited else { return }
            if pid == pendingReload?.parse.pid {
                reloadHelperExited(status)
            } else {
                runner.exited(pid: pid, status: status, now: monotonicMicroseconds())
            }
        }
    }

    private func handleSignals() {
        while true {
            let signal: Int32?
            do { signal = try SignalFD.next(signals) } catch {
                return logger.error("signalfd: \(error)")
            }
            guard let signal else { return }
            switch signal {
            case SIGCHLD:
                reapChildren()
            case SIGHUP:
                reload()
            default:
                logger.info("stopping (signal \(signal))")
                SystemdNotify.send("STOPPING=1")
                loop.running = false
            }
        }
    }
}
