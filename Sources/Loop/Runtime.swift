import Bindings
import Config
import Effects
import Input
#if canImport(Glibc)
import Glibc
#endif
import Logging
import SystemIO
import SystemPackage

/// The loop the daemon and the session agent both run, keyd's `evloop.c`: one epoll wait
/// (`EventLoop`), one timerfd set to the earliest deadline, a signalfd (SIGCHLD reaps,
/// the others are the owner's), the commands the owner starts and their output, the bus
/// connections and desktops' sockets it follows (each run when ready and at its
/// deadline), a configuration parsed by its helper, and systemd's watchdog. After every wake-up the owner does its own work
/// (`afterWakeUp`) and says its next deadline.
public final class Runtime {
    public let runner: CommandRunner
    private let logger: Logger
    private let loop: EventLoop
    private let timer: FileDescriptor
    private let signals: FileDescriptor
    private var sources: [BusSource] = []
    private var armedAt: Int64?
    /// WATCHDOG_USEC/2 when systemd watches, and when the next ping is due.
    private var watchdog: (interval: Int64, next: Int64)?
    /// The configuration being parsed, and what its owner does with it.
    private var parsing: (pending: PendingParse, done: (ConfigParse, Spawn.ExitStatus) -> Void)?
    /// SIGHUP, SIGTERM and SIGINT: the owner's.
    public var onSignal: (Int32) -> Void = { _ in }
    /// The owner's work after every wake-up (`now`: the monotonic clock); its next deadline.
    public var afterWakeUp: (Int64) -> Int64? = { _ in nil }

    /// Blocks the signals first: one that comes while the owner starts (a SIGHUP right
    /// after start, while a large configuration loads) waits for the loop instead of killing.
    public init(logger: Logger, commandTimeoutMS: Int) throws(Errno) {
        self.logger = logger
        signals = try SignalFD.create([SIGTERM, SIGINT, SIGHUP, SIGCHLD])
        loop = try EventLoop(logger: logger)
        timer = try TimerFD.create()
        runner = CommandRunner(timeoutMilliseconds: Int64(commandTimeoutMS), logger: logger)
        runner.onOutputClosed = { [unowned self] fd in loop.unwatch(fd) }
        try loop.watch(timer) { [unowned self] in
            do { try TimerFD.drain(timer) } catch { logger.error("timerfd: \(error)") }
        }
        try loop.watch(signals) { [unowned self] in handleSignals() }
    }

    /// Says READY to systemd, then waits and dispatches until `stop`.
    public func run() throws(Errno) {
        watchdog = SystemdNotify.watchdogInterval.map { ($0 / 2, 0) }
        SystemdNotify.send("READY=1")
        wokeUp()
        try loop.run { wokeUp() }
    }

    public func stop() { loop.running = false }

    // MARK: What is watched

    /// Those watched `first` (the touchscreens) run before the others ready at the same wake-up.
    public func watch(_ fd: FileDescriptor, _ what: String, writable: Bool = false, first: Bool = false, _ handler: @escaping () -> Void) {
        do { try loop.watch(fd, writable: writable, first: first, handler) } catch { logger.error("cannot watch \(what): \(error)") }
    }

    public func unwatch(_ fd: FileDescriptor) { loop.unwatch(fd) }

    /// A bus connection or a desktop's socket: watched as it says, run when ready and when due.
    public func follow(_ source: BusSource, _ what: String) {
        loop.follow(source, what)
        sources.append(source)
    }

    /// A bus no longer followed (the daemon's, replaced by a reload).
    public func forget(_ bus: BusService) {
        if let watched = bus.currentWatch { loop.unwatch(watched.fd) }
        sources.removeAll { $0 === bus }
    }

    /// Starts a command (within its limits) and reads its output into the log.
    public func start(_ command: CommandAction) {
        guard let output = runner.start(command, now: monotonicMicroseconds()) else { return }
        watch(output, "\(command.binding)'s output") { [unowned self] in runner.readOutput(output, now: monotonicMicroseconds()) }
    }

    /// Whether a configuration is being parsed.
    public var isParsing: Bool { parsing != nil }

    /// Parses a configuration (`file`'s bytes) in the helper process while the loop goes
    /// on: a SIGHUP's in the daemon, the user's file in the agent. Its output is read as it
    /// comes, the helper is killed past `ConfigParse.timeoutMicroseconds`, and `done` gets
    /// the parse and the helper's exit once it has both exited and closed its output. One
    /// at a time: false, and nothing started, while one is under way.
    @discardableResult
    public func parse(_ bytes: [UInt8], file: String, _ done: @escaping (ConfigParse, Spawn.ExitStatus) -> Void) throws(ConfigErrors) -> Bool {
        guard parsing == nil else { return false }
        let parse = try ConfigParse.start(bytes, file: file)
        parsing = (PendingParse(parse: parse, deadline: monotonicMicroseconds() + ConfigParse.timeoutMicroseconds), done)
        watch(parse.output, "the configuration's parsing helper") { [unowned self] in
            guard parsing != nil, parsing!.pending.parse.read() else { return }
            parsing!.pending.outputDone = true
            loop.unwatch(parsing!.pending.parse.output)
            finishParsing()
        }
        return true
    }

    private func finishParsing() {
        guard let (pending, done) = parsing, pending.outputDone, let status = pending.exit else { return }
        Syscall.release(pending.parse.output)
        parsing = nil
        done(pending.parse, status)
    }

    // MARK: The loop

    private func wokeUp() {
        let now = monotonicMicroseconds()
        var next = afterWakeUp(now)
        guard loop.running else { return }
        runner.enforceTimeouts(now: now)
        if let pending = parsing?.pending, pending.deadline <= now {
            // Killed; its end then comes as any other.
            try? Spawn.kill(group: pending.parse.pid, SIGKILL)
            parsing?.pending.deadline = .max
        }
        for source in sources {
            if let deadline = source.nextDeadline, deadline <= now { source.process() }
        }
        if let (interval, due) = watchdog, now >= due {
            SystemdNotify.send("WATCHDOG=1")
            watchdog = (interval, now + interval)
        }
        func consider(_ time: Int64?) {
            if let time, time < next ?? .max { next = time }
        }
        consider(runner.nextDeadline)
        consider(parsing?.pending.deadline)
        for source in sources { consider(source.nextDeadline) }
        consider(watchdog?.next)
        do { try TimerFD.rearm(timer, at: next, now: now, armedAt: &armedAt) } catch {
            logger.error("timerfd: cannot arm: \(error)")
        }
    }

    private func handleSignals() {
        while true {
            let signal: Int32?
            do { signal = try SignalFD.next(signals) } catch {
                return logger.error("signalfd: \(error)")
            }
            guard let signal else { return }
            if signal == SIGCHLD { reapChildren() } else { onSignal(signal) }
        }
    }

    /// Every exited child: the parsing helper, or a command's.
    private func reapChildren() {
        while true {
            let exited: (pid: pid_t, status: Spawn.ExitStatus)?
            do { exited = try Spawn.reap() } catch {
                return logger.error("waitpid: \(error)")
            }
            guard let (pid, status) = exited else { return }
            if pid == parsing?.pending.parse.pid {
                parsing?.pending.exit = status
                finishParsing()
            } else {
                runner.exited(pid: pid, status: status, now: monotonicMicroseconds())
            }
        }
    }
}

/// A configuration being parsed: its helper, and what of its end has come.
private struct PendingParse {
    var parse: ConfigParse
    /// When the helper is killed if it has not finished (monotonic µs).
    var deadline: Int64
    var outputDone = false
    var exit: Spawn.ExitStatus?
}
