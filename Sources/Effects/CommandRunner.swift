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
/// line under the binding's name.
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

    private(set) var jobs: [Job] = []
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
            logger.notice("\(binding): skipped, \(running) command(s) still running (max_running = \(action.maxRunning))")
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

    /// Reads what a job's command wrote and logs its complete lines; at the end of the
    /// output, the last line too, and the pipe is closed.
    public func readOutput(_ fd: FileDescriptor) {
        guard let i = jobs.firstIndex(where: { $0.output == fd && $0.outputOpen }) else { return }
        drain(i, exited: false)
    }

    /// Collects every exited child (SIGCHLD arrived): none is left a zombie, and what it
    /// wrote before exiting is logged before its pipe is closed.
    public func reapExited() {
        while true {
            let exited: (pid: pid_t, status: String)?
            do { exited = try Spawn.reap() } catch {
                return logger.error("waitpid: \(error)")
            }
            guard let (pid, status) = exited else { return }
            guard let i = jobs.firstIndex(where: { $0.pid == pid }) else { continue }
            if jobs[i].outputOpen { drain(i, exited: true) }
            let job = jobs.remove(at: i)
            logger.info("\(job.binding): pid \(pid) ended, \(status)")
        }
    }

    /// Reads until the pipe is empty for now, or at its end. Once the command has exited,
    /// an empty pipe is the end too: whatever it left running in the background (a
    /// command ending in `&`) is no longer heard.
    private func drain(_ i: Int, exited: Bool) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var atEnd = false
        while !atEnd {
            do {
                let n = try buffer.withUnsafeMutableBytes { (b) throws(Errno) -> Int in try Syscall.read(jobs[i].output, into: b) }
                jobs[i].pending += buffer[0..<n]
                atEnd = n == 0
            } catch .wouldBlock {
                atEnd = exited
                if !atEnd { break }
            } catch {
                logger.warning("\(jobs[i].binding): cannot read the command's output: \(error)")
                atEnd = true
            }
            logLines(i, final: atEnd)
        }
        if atEnd {
            onOutputClosed(jobs[i].output)
            Syscall.close(jobs[i].output)
            jobs[i].outputOpen = false
        }
    }

    /// Logs the complete lines pending, and at the end what is left; a line longer than
    /// `maxLineBytes` is logged in pieces, so nothing a command prints grows without bound.
    private func logLines(_ i: Int, final: Bool) {
        let pending = jobs[i].pending
        var start = 0
        while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            logLine(jobs[i].binding, pending[start..<newline])
            start = newline + 1
        }
        while pending.count - start >= Self.maxLineBytes || (final && start < pending.count) {
            let end = min(pending.count, start + Self.maxLineBytes)
            logLine(jobs[i].binding, pending[start..<end])
            start = end
        }
        jobs[i].pending.removeFirst(start)
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
}
