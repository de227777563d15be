import Bindings
import Config
import Effects
#if canImport(Glibc)
import Glibc
#endif
import Input
import Logging
import Loop
import Pipeline
import SystemIO
import SystemPackage
import TouchCore

/// The daemon: the seat decides everything above the OS; the daemon gives it what it
/// reads (`step`) and performs what it says (`performSeatEffects`), in the loop it shares
/// with the session agent (`Runtime`: the input, the bus, the commands, the timer for the
/// earliest deadline: the seat's, the replay's, the commands'). SIGTERM and SIGINT stop
/// it, SIGHUP reloads.
public final class Daemon {
    let options: DaemonOptions
    var logger: Logger
    let runtime: Runtime
    /// The configuration in force: the seat's, and the daemon-wide settings' here.
    var config: Configuration
    let seat: Seat
    /// The seat's time: the monotonic clock's, or a replay's (its recorded time at its speed).
    var clock = SeatClock.monotonic
    var bus: BusService?
    /// The virtual keyboard and pointer, while bindings need them.
    var virtual: VirtualDevices?
    /// The panels read and what is known of those that could not be.
    var touchscreens = Touchscreens()
    var replay: RecordingSource?
    /// monitor: the running service's mode, pause and lock (asked for each panel's rotation).
    var service: ServiceFollower?
    /// iio-sensor-proxy's accelerometer, once a configuration follows it.
    var sensor: SensorProxyWatcher?
    var reloads = Reloads()
    /// A refusal of a report of the application in front has been said.
    var saidAppRefusal = false
    /// What the log says of the seat's steps and changes.
    let seatLog: SeatLog
    /// Stopping (SIGTERM, SIGINT), while the touchpad's waiting frames still go out at its
    /// pace: until then at the latest (monotonic µs). The panels' events are no longer the seat's.
    var stoppingBy: Int64?
    /// The touchpad's waiting frames take 0.64 s at most (128 at 5 ms); past this bound
    /// what still waits goes out at once.
    static let touchpadFinishMicroseconds: Int64 = 1_000_000

    public init(options: DaemonOptions) throws {
        self.options = options
        seatLog = SeatLog(service: options.mode == .service)
        logger = Logger(label: "gestured") { _ in StderrLogHandler() }
        runtime = try Runtime(logger: logger, commandTimeoutMS: DaemonSettings().commandTimeoutMS)
        config = try Self.loadConfig(options.configPath, logger: logger)
        seat = Seat(config: config, mode: options.mode, keyCodes: { KeyCodes.libevdev })
        runtime.onSignal = { [unowned self] in take(signal: $0) }
        runtime.afterWakeUp = { [unowned self] in afterWakeUp(now: $0) }
        try apply(config)
    }

    /// Runs until stopped (live) or until the recording, its decisions and its commands
    /// are done (replay); returns the exit status.
    public func run() -> Int32 {
        do {
            switch options.source {
            case .recordings(let paths, let timeline, let speed, let rounds): try startReplay(paths, timeline: timeline, speed: speed, rounds: rounds)
            case .touchscreens(let only): startLive(only: only)
            }
            try runtime.run()
            seatLog.writeAll(logger)
            // The last signals still go out: a replay's within 2 s (on a loaded machine the
            // bus may still be answering its hello), those just before a stop within a
            // quarter of a second, which a bus flooded with calls takes whole.
            let lastSignalsWithin: Int64 = if case .recordings = options.source { 2_000_000 } else { 250_000 }
            bus?.finish(within: lastSignalsWithin, now: monotonicMicroseconds)
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
        runtime.runner.logger.logLevel = logger.logLevel
        runtime.runner.timeoutMilliseconds = Int64(config.daemon.commandTimeoutMS)
        runtime.runner.user = Users.effectiveID == 0 ? try config.daemon.user.flatMap(Users.lookUp) : nil
        let wanted = options.mode == .monitor ? .none : options.bus ?? config.daemon.bus
        let kind: BusService.Kind? = wanted == .system ? .system : wanted == .session ? .session : nil
        if bus?.kind != kind {
            if let old = bus {
                // A Reload call that changes the bus came on the one about to go: it is
                // answered there (the reload is applied), before that one closes.
                answerReloadCallers(nil, busGoing: true)
                old.finish(within: 200_000, now: monotonicMicroseconds)
                runtime.forget(old)
            }
            bus = kind.map { BusService(kind: $0, logger: logger) }
            if let bus {
                bus.control = self
                runtime.follow(bus, "the bus")
                bus.connect(now: monotonicMicroseconds())
            }
        }
        seat.explaining = explaining
        seat.stepsShown = explaining ? .every : .notable
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

    /// Gives the seat one input and performs what it decided (a refused request still
    /// changed what was due by then).
    func take(_ input: SeatInput) throws(ControlRefusal) {
        if stoppingBy != nil, case .event = input { return }
        defer { performSeatEffects() }
        try seat.step(input)
    }

    /// An input that is no request: the seat cannot refuse it.
    func step(_ input: SeatInput) {
        do { try take(input) } catch {
            logger.error("bug: the seat refused an input that is no request: \(error)")
        }
    }

    // MARK: The loop

    /// After every wake-up: due replay events and deadlines; the next deadline of the
    /// seat's, the replay's and the daemon's own.
    func afterWakeUp(now: Int64) -> Int64? {
        // A replay behind leaves the seat's deadlines to its next events, which run them in order.
        let replayBehind = feedReplay(now: now)
        let seatNow = clock.seatTime(now)
        if !replayBehind, let due = seat.nextDeadline, due <= seatNow { step(.deadline(seatNow)) }
        if let due = seatLog.due, due <= now { seatLog.writeAll(logger) }
        writeDueTouchpadFrames(now: now)
        seatLog.sayUnsaidChanges(now: now, logger)
        if let by = stoppingBy, virtual?.touchpadDue == nil || now >= by {
            finishStopping()
            return nil
        }
        if case .recordings = options.source, replay?.isFinished ?? true, seat.nextTouchDeadline == nil, virtual?.touchpadDue == nil,
           runtime.runner.isIdle, !runtime.isParsing {
            logger.info("replay finished")
            runtime.stop()
            return nil
        }
        // At every wake-up (each read of a panel): found without building an array.
        var next: Int64?
        func consider(_ time: Int64?) {
            if let time, time < next ?? .max { next = time }
        }
        consider(replay?.nextTime.map(clock.monotonic))
        consider(seat.nextDeadline.map(clock.monotonic))
        consider(seatLog.due)
        consider(virtual?.touchpadDue)
        consider(stoppingBy)
        return next
    }

    private func take(signal: Int32) {
        switch signal {
        case SIGHUP:
            reload()
        default:
            // A second signal does not wait for the touchpad.
            if stoppingBy != nil { return finishStopping() }
            logger.info("stopping (signal \(signal))")
            SystemdNotify.send("STOPPING=1")
            // Touches under way end on the twins, and nothing stays pressed.
            step(.stopping(at: now))
            // Its frames written at once would be jumps of the fingers to libinput, which
            // drops them: the desktop's swipe would end short of where the fingers did.
            guard virtual?.touchpadDue != nil else { return runtime.stop() }
            logger.info("stopping once the touchpad's waiting frames have gone out at its pace")
            stoppingBy = monotonicMicroseconds() + Self.touchpadFinishMicroseconds
        }
    }

    /// What the touchpad still waits to write goes out, and the loop ends.
    private func finishStopping() {
        writeDueTouchpadFrames(now: monotonicMicroseconds(), all: true)
        runtime.stop()
    }
}
