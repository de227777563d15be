import Bindings
#if canImport(Glibc)
import Glibc
#endif
import Logging
import SystemIO
import SystemPackage

/// Runs bound commands without ever blocking the loop: each in its own process group,
/// at most `limit` at a time per binding (a gesture that fires meanwhile is skipped and
/// logged), killed at the timeout, reaped as soon as it exits, its output logged line by
/// line under the binding's name. A command that prints without end cannot hold the loop
/// nor fill the log: each wake-up reads at most `readBudgetBytes` of a command's output,
/// and a binding's commands log at most `logBurst` lines at once and `logPerSecond` a
/// second, with a line a second saying how many were not logged.
public final class CommandRunner {
    struct Job {
        var pid: pid_t
        var binding: String
        var output: FileDescriptor
        /// Monotonic microseconds at which it is signalled: SIGTERM, then SIGKILL.
        var deadline: Int64
        var terminated = false
        var outputOpen = true
        var pending: [UInt8] = []
    }

    /// A second to exit after SIGTERM before SIGKILL.
    static let killGraceMicroseconds: Int64 = 1_000_000
    /// The longest output line logged whole.
    static let maxLineBytes = 4096
    /// What one wake-up reads of one command's output: a pipe's capacity.
    static let readBudgetBytes = 1 << 16
    /// Lines a binding's commands may log at once, then a second.
    static let logBurst = 100.0
    static let logPerSecond = 20.0

    private(set) var jobs: [Job] = []
    /// By binding: how many more lines its commands may log.
    private var allowances: [String: Allowance] = [:]
    /// By binding: how many more times a skipped gesture may be said (a stepped pan fires
    /// hundreds a second); the rest are counted, and said when its commands end.
    private var skipAllowances: [String: Allowance] = [:]
    static let skipBurst = 5.0
    static let skipsPerSecond = 1.0
    public var timeoutMilliseconds: Int64
    /// When running as root with `[daemon] user`, commands run as that user through
    /// setpriv (its groups, home and a clean environment).
    public var user: Users.Account?
    /// The daemon's, its level following the configuration's.
    public var logger: Logger
    /// Called before a command's output descriptor is closed, so the loop stops watching it.
    public var onOutputClosed: (FileDescriptor) -> Void = { _ in }

    public init(timeoutMilliseconds: Int64, logger: Logger) {
        self.timeoutMilliseconds = timeoutMilliseconds
        self.logger = logger
    }

    public var isIdle: Bool { jobs.isEmpty }
    public var nextDeadline: Int64? { jobs.lazy.map(\.deadline).min() }

    /// Starts the command (directly, or with `/bin/sh -c`: see `CommandForm`) with the
    /// gesture's variables added to its environment; returns the output descriptor to
    /// watch, or nil when skipped or failed (both logged).
    public func start(_ action: CommandAction, now: Int64) -> FileDescriptor? {
        let binding = action.binding, command = action.command, assignments = action.environment
        let running = jobs.filter { $0.binding == binding }.count
        guard running < action.maxRunning else {
            var allowance = skipAllowances[binding] ?? Allowance(burst: Self.skipBurst, perSecond: Self.skipsPerSecond, reportEvery: 1_000_000, now: now)
            if allowance.take(now: now) {
                logger.notice("\(binding): skipped, \(running) command(s) still running (max_running = \(action.maxRunning))")
            }
            skipAllowances[binding] = allowance
            return nil
        }
        let argv: [String]
        let environment: [String]
        if let user {
            // setpriv resets the environment to the user's; env then adds the gesture's
            // variables as arguments, never through the shell, and looks the program up
            // on the user's PATH.
            argv = ["/usr/bin/setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)", "--init-groups", "--reset-env",
                    "--", "/usr/bin/env"] + assignments + command.argv
            environment = []
        } else {
            argv = command.argv
            environment = Environment.current.filter { !$0.hasPrefix("GESTURE_") } + assignments
        }
        do {
            let child = try Spawn.start(argv, environment: environment, searchPath: user == nil)
            jobs.append(Job(pid: child.pid, binding: binding, output: child.output, deadline: now + timeoutMilliseconds * 1000))
            logger.info("\(binding): started pid \(child.pid)")
            logger.debug("\(binding): pid \(child.pid) \(command)")
            return child.output
        } catch {
            logger.error("\(binding): cannot start \(argv[0]): \(error)")
            return nil
        }
    }

    /// Reads what a job's command wrote, up to the budget, and logs its complete lines;
    /// at the end of the output, the last line too, and the pipe is closed.
    public func readOutput(_ fd: FileDescriptor, now: Int64) {
        guard let i = jobs.firstIndex(where: { $0.output == fd && $0.outputOpen }) else { return }
        drain(i, exited: false, now: now)
    }

    /// A child exited (the loop reaps them all): if it was a command's, what it wrote
    /// before exiting is logged before its pipe is closed. False when it was not ours.
    @discardableResult
    public func exited(pid: pid_t, status: Spawn.ExitStatus, now: Int64) -> Bool {
        guard let i = jobs.firstIndex(where: { $0.pid == pid }) else { return false }
        if jobs[i].outputOpen { drain(i, exited: true, now: now) }
        let job = jobs.remove(at: i)
        // What the binding's commands may still log outlives them: a gesture repeated
        // does not earn a new burst. Forgotten once refilled, so names a reload dropped go.
        if !jobs.contains(where: { $0.binding == job.binding }), var allowance = allowances[job.binding] {
            reportDropped(job.binding, allowance.takeDropped())
            allowances[job.binding] = allowance.isFull(now: now) ? nil : allowance
        }
        if !jobs.contains(where: { $0.binding == job.binding }), var allowance = skipAllowances[job.binding] {
            let unsaid = allowance.takeDropped()
            if unsaid > 0 { logger.notice("\(job.binding): \(unsaid) more gesture(s) skipped while its commands ran") }
            skipAllowances[job.binding] = allowance.isFull(now: now) ? nil : allowance
        }
        logger.info("\(job.binding): pid \(pid) ended, \(status)")
        return true
    }

    /// Reads until the pipe is empty for now, at its end, or the budget is spent (the
    /// loop comes back: the pipe is still readable). Once the command has exited, an
    /// empty pipe or a spent budget is the end too: whatever it left running in the
    /// background (a command ending in `&`) is no longer heard.
    private func drain(_ i: Int, exited: Bool, now: Int64) {
        var buffer = [UInt8](repeating: 0, count: Self.readBudgetBytes)
        var budget = Self.readBudgetBytes
        var atEnd = false
        while !atEnd, budget > 0 {
            do {
                let n = try buffer.withUnsafeMutableBytes { (b) throws(Errno) -> Int in
                    try Syscall.read(jobs[i].output, into: UnsafeMutableRawBufferPointer(rebasing: b[..<budget]))
                }
                jobs[i].pending += buffer[0..<n]
                budget -= n
                atEnd = n == 0 || (exited && budget <= 0)
            } catch .wouldBlock {
                atEnd = exited
                if !atEnd { break }
            } catch {
                logger.warning("\(jobs[i].binding): cannot read the command's output: \(error)")
                atEnd = true
            }
        }
        logLines(i, final: atEnd, now: now)
        if atEnd {
            onOutputClosed(jobs[i].output)
            Syscall.release(jobs[i].output)
            jobs[i].outputOpen = false
        }
    }

    /// Logs the complete lines pending, and at the end what is left; a line longer than
    /// `maxLineBytes` is logged in pieces, so nothing a command prints grows without bound.
    /// Once the allowance is spent, the rest of the lines are only counted.
    private func logLines(_ i: Int, final: Bool, now: Int64) {
        let binding = jobs[i].binding
        var allowance = allowances[binding] ?? Allowance(burst: Self.logBurst, perSecond: Self.logPerSecond, reportEvery: 1_000_000, now: now)
        defer {
            if let dropped = allowance.dueReport(now: now) { reportDropped(binding, dropped) }
            allowances[binding] = allowance
        }
        let pending = jobs[i].pending
        var start = 0
        while start < pending.count {
            guard allowance.hasRoom(now: now) else {
                // Whole lines, and pieces of the longest: counted, not looked at one by one.
                let (lines, end) = Self.countLines(pending, from: start, final: final)
                allowance.refuse(lines)
                start = end
                break
            }
            let newline = pending[start...].prefix(Self.maxLineBytes).firstIndex(of: UInt8(ascii: "\n"))
            guard let end = newline ?? (pending.count - start >= Self.maxLineBytes || final ? min(pending.count, start + Self.maxLineBytes) : nil)
            else { break }
            _ = allowance.take(now: now)
            logLine(binding, pending[start..<end])
            start = newline.map { $0 + 1 } ?? end
        }
        jobs[i].pending.removeFirst(start)
    }

    /// The lines from `start` to the last newline (to the end when `final`, its
    /// unfinished line counted too) and where they end: a pass over raw bytes, as fast
    /// as memchr in a debug build too.
    private static func countLines(_ bytes: [UInt8], from start: Int, final: Bool) -> (lines: Int, end: Int) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return (0, start) }
            var lines = 0, end = start, p = start
            while p < buffer.count {
                if base[p] == 10 {
                    lines += 1
                    end = p + 1
                }
                p += 1
            }
            if final, buffer.count > end { return (lines + 1, buffer.count) }
            return (lines, end)
        }
    }

    /// Signals commands past their timeout: SIGTERM to the group, SIGKILL a second later.
    public func enforceTimeouts(now: Int64) {
        for i in jobs.indices where jobs[i].deadline <= now {
            if jobs[i].terminated {
                signal(i, SIGKILL)
                jobs[i].deadline = Int64.max
            } else {
                logger.warning("\(jobs[i].binding): pid \(jobs[i].pid) still running after \(timeoutMilliseconds) ms, terminating it")
                signal(i, SIGTERM)
                jobs[i].terminated = true
                jobs[i].deadline = now + Self.killGraceMicroseconds
            }
        }
    }

    private func signal(_ job: Int, _ signal: Int32) {
        do { try Spawn.kill(group: jobs[job].pid, signal) } catch {
            logger.error("\(jobs[job].binding): cannot signal pid \(jobs[job].pid): \(error)")
        }
    }

    private func logLine(_ binding: String, _ bytes: ArraySlice<UInt8>) {
        logger.info("\(binding): \(String(decoding: bytes, as: UTF8.self))")
    }

    private func reportDropped(_ binding: String, _ count: Int) {
        guard count > 0 else { return }
        logger.notice("\(binding): … \(count) line\(count == 1 ? "" : "s") of output not logged (at most \(Int(Self.logPerSecond)) a second)")
    }
}
