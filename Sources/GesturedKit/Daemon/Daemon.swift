import Bindings
import Config
import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Gestures
import Logging
import SystemPackage
import TouchCore

/// What `gestured run` was asked to do.
public struct DaemonOptions {
    public var configPath: String?
    /// A recording standing in for a device, played at its recorded pace.
    public var replayPath: String?
    public var speed = 1.0
    public var bus: DaemonSettings.Bus?
    public var logLevel: Logger.Level?

    public init() {}
}

/// The daemon: one epoll loop over the input, a timerfd for the earliest deadline
/// (recognizers, the replay, command timeouts), a signalfd (SIGTERM/SIGINT stop, SIGHUP
/// reloads, SIGCHLD reaps), the bus and the commands' output.
public final class Daemon {
    let options: DaemonOptions
    var logger: Logger
    let loop: EventLoop
    let timer: FileDescriptor
    let signals: FileDescriptor
    var config: Configuration
    var bindings: [String: Binding] = [:]
    let runner: CommandRunner
    var bus: BusEmitter?
    var touchscreens: [Touchscreen] = []
    var replay: RecordingReplay?
    var live: LiveInput?
    /// WATCHDOG_USEC/2 when systemd watches us, and when the next ping is due.
    var watchdogInterval: Int64?
    var nextWatchdog: Int64 = .max
    var exitCode: Int32 = 0

    public init(options: DaemonOptions) throws {
        self.options = options
        logger = Logger(label: "gestured") { _ in StderrLogHandler() }
        config = try Self.loadConfig(options.configPath)
        loop = try EventLoop()
        timer = try TimerFD.create()
        signals = try SignalFD.create([SIGTERM, SIGINT, SIGHUP, SIGCHLD])
        runner = CommandRunner(timeoutMilliseconds: Int64(config.daemon.commandTimeoutMS), logger: logger)
        apply(config)
        try loop.watch(timer) { [unowned self] in TimerFD.drain(timer) }
        try loop.watch(signals) { [unowned self] in handleSignals() }
    }

    /// Runs until stopped (live) or until the recording, its decisions and its commands
    /// are done (replay); returns the exit status.
    public func run() -> Int32 {
        do {
            if let path = options.replayPath {
                replay = try RecordingReplay(path: path, daemon: self)
            } else {
                live = LiveInput(daemon: self)
                live?.enumerate()
            }
            var usec: UInt64 = 0
            if sd_watchdog_enabled(0, &usec) > 0 { watchdogInterval = Int64(usec / 2) }
            notify("READY=1")
            step()
            try loop.run { step() }
        } catch {
            logger.error("\(error)")
            return 1
        }
        return exitCode
    }

    // MARK: Configuration

    static func loadConfig(_ path: String?) throws -> Configuration {
        guard let path else { return Configuration.makeDefault() }
        try ConfigSafety.check(path)
        let config = try loadConfiguration(path)
        // Commands must never fall back to root because the user is missing.
        if geteuid() == 0, let user = config.daemon.user, lookUpUser(user) == nil {
            throw ConfigErrors(errors: [ConfigError(file: path, keyPath: "daemon.user",
                                                    message: "there is no user \"\(user)\": create it or remove the setting")])
        }
        return config
    }

    private func apply(_ config: Configuration) {
        self.config = config
        bindings = Dictionary(config.bindings.map { ($0.gesture, $0) }, uniquingKeysWith: { first, _ in first })
        logger.logLevel = options.logLevel ?? Self.level(config.daemon.logLevel)
        runner.timeoutMilliseconds = Int64(config.daemon.commandTimeoutMS)
        runner.user = geteuid() == 0 ? config.daemon.user.flatMap(lookUpUser) : nil
        let wanted = options.bus ?? config.daemon.bus
        let kind: BusEmitter.Kind? = wanted == .system ? .system : wanted == .session ? .session : nil
        if bus?.kind != kind {
            bus = kind.map { BusEmitter(kind: $0, logger: logger) }
            bus?.onDescriptorChange = { [unowned self] old, new in
                if let old { loop.unwatch(old) }
                if let new { try? loop.watch(new) { [unowned self] in bus?.process() } }
            }
            if config.bindings.contains(where: \.signal) { bus?.connect() }
        }
    }

    /// SIGHUP: a configuration with errors is rejected (the running one stays); a good one
    /// takes over on each device when its fingers are up.
    func reload() {
        notify("RELOADING=1")
        defer { notify("READY=1") }
        guard let path = options.configPath else { return logger.info("reload: no configuration file, nothing to do") }
        do {
            let next = try Self.loadConfig(path)
            apply(next)
            for screen in touchscreens { screen.pendingConfig = next }
            logger.info("reload: \(path): \(next.gestures.count) gestures")
        } catch {
            logger.error("reload: rejected, keeping the running configuration:\n\(error)")
        }
    }

    private static func level(_ level: DaemonSettings.LogLevel) -> Logger.Level {
        switch level {
        case .debug: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
    }

    // MARK: The loop

    /// After every wake-up: due replay events and deadlines, then the timer for the next one.
    func step() {
        let now = monotonicMicroseconds()
        replay?.feedDue(now: now)
        for screen in touchscreens { screen.advance(to: now) }
        runner.enforceTimeouts(now: now)
        if let watchdogInterval, now >= nextWatchdog || nextWatchdog == .max {
            notify("WATCHDOG=1")
            nextWatchdog = now + watchdogInterval
        }
        if let replay, replay.isFinished, touchscreens.allSatisfy({ $0.nextDeadline == nil }), runner.isIdle {
            logger.info("replay finished")
            loop.running = false
            return
        }
        var next = replay?.nextTime
        func consider(_ time: Int64?) {
            if let time, time < next ?? .max { next = time }
        }
        consider(runner.nextDeadline)
        if watchdogInterval != nil { consider(nextWatchdog) }
        for screen in touchscreens { consider(screen.nextDeadline) }
        try? TimerFD.arm(timer, atMicroseconds: next)
    }

    /// Starts following a touchscreen: its gestures are logged, run and signalled.
    func add(_ screen: Touchscreen) {
        screen.pipeline.arbiter.explaining = logger.logLevel <= .debug
        screen.onGestures = { [unowned self, unowned screen] events, transitions in
            for t in transitions {
                logger.debug("\(screen.name): \(t.gesture): \(t.from.rawValue) → \(t.to.rawValue): \(t.reason)")
            }
            for event in events { perform(event, on: screen) }
        }
        touchscreens.append(screen)
    }

    func remove(_ screen: Touchscreen) {
        touchscreens.removeAll { $0 === screen }
    }

    private func perform(_ event: GestureEvent, on screen: Touchscreen) {
        if event.phase != .changed {
            logger.info("\(screen.name): \(event.name) (\(event.type.rawValue)) \(event.phase.rawValue), \(event.fingers) finger(s)")
        }
        guard let binding = bindings[event.name] else { return }
        if binding.signals(event) { bus?.emit(event, device: screen.name) }
        if let command = binding.command(for: event) {
            let variables = GestureEnvironment.variables(event, device: screen.name)
            if let output = runner.start(binding: binding.gesture, command: command, variables: variables,
                                         limit: binding.maxRunning, now: monotonicMicroseconds()) {
                try? loop.watch(output) { [unowned self] in
                    if !runner.readOutput(output) { loop.unwatch(output) }
                }
            }
        }
    }

    private func handleSignals() {
        while let signal = SignalFD.next(signals) {
            switch signal {
            case SIGCHLD:
                runner.reapExited()
            case SIGHUP:
                reload()
            default:
                logger.info("stopping (signal \(signal))")
                notify("STOPPING=1")
                loop.running = false
            }
        }
    }

    func notify(_ state: String) { _ = sd_notify(0, state) }
}
