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

/// The daemon: one epoll loop over the input, a timerfd for the earliest deadline (the
/// seat's, the replay's, command timeouts), a signalfd (SIGTERM/SIGINT stop, SIGHUP
/// reloads, SIGCHLD reaps), the bus and the commands' output. The seat decides
/// everything above the OS; the daemon gives it what it reads (`step`) and performs what
/// it says (`perform`).
public final class Daemon {
    let options: DaemonOptions
    var logger: Logger
    let loop: EventLoop
    let timer: FileDescriptor
    let signals: FileDescriptor
    /// The configuration in force: the seat's, and the daemon-wide settings' here.
    var config: Configuration
    let seat: Seat
    /// The seat's time: the monotonic clock's, or a replay's (its recorded time at its speed).
    var clock = SeatClock.monotonic
    let runner: CommandRunner
    var bus: BusService?
    /// The virtual keyboard and pointer, while bindings need them.
    var virtual: VirtualDevices?
    /// The panels read, by node: their devices and twins. A replay's is its path, with neither.
    var panels: [String: OpenPanel] = [:]
    var replay: RecordingSource?
    /// Whether screens are lit, read when a touch begins (see `wake_latch`).
    let screenSensor = ScreenSensor()
    var udev: Udev?
    /// monitor: the running service's mode, pause and lock (asked for each panel's rotation).
    var service: ServiceFollower?
    /// iio-sensor-proxy's accelerometer, once a configuration follows it.
    var sensor: SensorProxyWatcher?
    /// logind's lock, the service and the accelerometer as the loop runs them: each
    /// watched, and run when due.
    var busSources: [BusSource] = []
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
    var controlLines = Daemon.controlLineAllowance(now: monotonicMicroseconds())
    /// A refusal of a report of the application in front has been said.
    var saidAppRefusal = false
    var saidTwinsUnrecorded = false
    /// What performing a step asks of the seat next: a twin that could not be made.
    var followUps: [SeatInput] = []
    /// What a seat step said to do that waits until its signals, keys and twin's events
    /// are out: the commands to start (a spawn takes milliseconds) and the steps to log.
    /// Whoever steps the seat performs them after it (`performAfterwards`).
    var afterwards: [Afterwards] = []
    /// Live, the steps' log lines wait a moment for the loop to be idle (`unhurriedDue`):
    /// see `performAfterwards`.
    var unhurried: [(step: Step, panel: String)] = []
    var unhurriedDue: Int64?
    /// The seat asked for the devices present again (`SeatEffect.rescan`): done once its step is.
    var rescanWanted = false

    public init(options: DaemonOptions) throws {
        self.options = options
        logger = Logger(label: "gestured") { _ in StderrLogHandler() }
        // Blocked before the configuration is read: a SIGHUP while a large one loads
        // (systemctl reload right after start) waits for the loop instead of killing.
        signals = try SignalFD.create([SIGTERM, SIGINT, SIGHUP, SIGCHLD])
        config = try Self.loadConfig(options.configPath, logger: logger)
        seat = Seat(config: config, mode: options.mode, keyCodes: { KeyCodes.libevdev })
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
            case .recordings(let paths, let timeline, let speed, let rounds): try startReplay(paths, timeline: timeline, speed: speed, rounds: rounds)
            case .touchscreens(let only): startLive(only: only)
            }
            watchdogInterval = SystemdNotify.watchdogInterval.map { $0 / 2 }
            SystemdNotify.send("READY=1")
            afterWakeUp()
            try loop.run { afterWakeUp() }
            writeUnhurried()
            // The last signals of a replay, or those just before a stop, still go out: a
            // quarter of a second at most, which a bus flooded with calls takes whole.
            bus?.finish(within: 250_000, now: monotonicMicroseconds)
            if servesSessions { sayWhetherTheAgentIsWanted(false) }
        } catch {
            logger.error("\(error)")
            return 1
        }
        return 0
    }

    // MARK: Configuration

    /// The system service, live: the sessions' agents report to it.
    var servesSessions: Bool {
        guard case .touchscreens = options.source, options.mode != .monitor else { return false }
        return bus?.kind == .system
    }

    /// `AgentWanted`: said in the log when it cannot be written.
    func sayWhetherTheAgentIsWanted(_ wanted: Bool) {
        do { try AgentWanted.set(wanted) } catch {
            logger.warning("cannot say whether the session agent is wanted (\(AgentWanted.path): \(error)); sessions start it only where that file is")
        }
    }

    static func loadConfig(_ path: String?, logger: Logger) throws -> Configuration {
        guard let path else { return try loadDefaultConfiguration() }
        let (config, warnings) = try loadDaemonConfiguration(path)
        for warning in warnings { logger.warning("\(warning)") }
        return config
    }

    /// The daemon-wide settings (log level, command limits and user, the bus), then the
    /// seat's share: its modes, gestures and panels (the first configuration too).
    func apply(_ config: Configuration, at time: Timestamp? = nil) throws {
        self.config = config
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
            if let old = bus {
                if let watched = old.currentWatch { loop.unwatch(watched.fd) }
                busSources.removeAll { $0 === old }
            }
            bus = kind.map { BusService(kind: $0, logger: logger) }
            if let bus {
                bus.control = self
                watch(bus, "the bus")
                bus.connect(now: monotonicMicroseconds())
            }
        }
        seat.explaining = explaining
        step(.reload(config, at: time ?? now))
        if servesSessions { sayWhetherTheAgentIsWanted(true) }
        if case .touchscreens = options.source, sensor == nil, config.followsAccelerometer { followTheAccelerometer() }
    }

    /// Whether the pipelines say why: for the debug log, and whenever steps are shown.
    var explaining: Bool { options.show != nil || logger.logLevel <= .debug }

    private static func level(_ level: DaemonSettings.LogLevel) -> Logger.Level {
        switch level {
        case .debug: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
    }

    // MARK: The seat

    /// The seat's time now, for an input from outside the panels (a reload, the bus,
    /// logind). A replay that is behind has not yet given what happened before: such an
    /// input comes at its next item's time, so that the seat never runs a deadline past
    /// events still to come.
    var now: Timestamp {
        let time = clock.seatTime(monotonicMicroseconds())
        if let next = replay?.nextTime, next < time { return next }
        return time
    }

    /// Gives the seat one input and performs what it says, then what that asks of it next
    /// (a refused request still changed what was due by then).
    func take(_ input: SeatInput) throws(ControlRefusal) {
        defer {
            performAfterwards()
            while !followUps.isEmpty {
                step(followUps.removeFirst())
            }
            if rescanWanted, case .touchscreens = options.source {
                rescanWanted = false
                enumerate()
            }
        }
        try seat.step(input) { perform($0) }
    }

    /// An input that is no request: the seat cannot refuse it.
    func step(_ input: SeatInput) {
        do { try take(input) } catch {
            logger.error("bug: the seat refused an input that is no request: \(error)")
        }
    }

    /// A bus connection (the service's, or one following a peer) or a desktop's socket,
    /// watched as it says, and run when due (see `afterWakeUp`).
    func watch(_ source: BusSource, _ what: String) {
        loop.follow(source, what)
        busSources.append(source)
    }

    func watch(_ fd: FileDescriptor, _ what: String, writable: Bool = false, first: Bool = false, _ handler: @escaping () -> Void) {
        do { try loop.watch(fd, writable: writable, first: first, handler) } catch { logger.error("cannot watch \(what): \(error)") }
    }

    // MARK: The loop

    /// After every wake-up: due replay events and deadlines, then the timer for the next one.
    func afterWakeUp() {
        let now = monotonicMicroseconds()
        // A replay behind leaves the seat's deadlines to its next events, which run them in order.
        let replayBehind = feedReplay(now: now)
        let seatNow = clock.seatTime(now)
        if !replayBehind, let due = seat.nextDeadline, due <= seatNow { step(.deadline(seatNow)) }
        if let due = unhurriedDue, due <= now { writeUnhurried() }
        runner.enforceTimeouts(now: now)
        writeDueTouchpadFrames(now: now)
        reportUnsaidControlLines(now: now)
        enforceReloadTimeout(now: now)
        for source in busSources {
            if let deadline = source.nextDeadline, deadline <= now { source.process() }
        }
        if let watchdogInterval, now >= nextWatchdog || nextWatchdog == .max {
            SystemdNotify.send("WATCHDOG=1")
            nextWatchdog = now + watchdogInterval
        }
        if case .recordings = options.source, replay?.isFinished ?? true, seat.nextTouchDeadline == nil, runner.isIdle, pendingReload == nil {
            logger.info("replay finished")
            loop.running = false
            return
        }
        var next: Int64?
        func consider(_ time: Int64?) {
            if let time, time < next ?? .max { next = time }
        }
        consider(replay?.nextTime.map(clock.monotonic))
        consider(seat.nextDeadline.map(clock.monotonic))
        consider(runner.nextDeadline)
        consider(unhurriedDue)
        consider(virtual?.touchpadDue)
        consider(pendingReload?.deadline)
        for source in busSources { consider(source.nextDeadline) }
        if watchdogInterval != nil { consider(nextWatchdog) }
        do { try TimerFD.rearm(timer, at: next, now: now, armedAt: &armedAt) } catch {
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
                // Touches under way end on the twins, and nothing stays pressed.
                step(.stopping(at: now))
                writeDueTouchpadFrames(now: monotonicMicroseconds(), all: true)
                loop.running = false
            }
        }
    }
}
