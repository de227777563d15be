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

    private(set) var jobs: [Job] = []
    public var timeoutMilliseconds: Int64
    /// When running as root with `[daemon] user`, commands run as that user through
    /// setpriv (its groups, home and a clean environment).
    public var user: Users.Account?
    private let logger: Logger

    public init(timeoutMilliseconds: Int64, logger: Logger) {
        self.timeoutMilliseconds = timeoutMilliseconds
        self.logger = logger
    }

    public var isIdle: Bool { jobs.isEmpty }
    public var nextDeadline: Int64? { jobs.lazy.map(\.deadline).min() }

    /// Starts `/bin/sh -c command` with the gesture's variables added to its environment;
    /// returns the output descriptor to watch, or nil when skipped or failed (both logged).
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
            // variables as arguments, never through the shell.
            argv = ["/usr/bin/setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)", "--init-groups", "--reset-env",
                    "--", "/usr/bin/env"] + assignments + ["/bin/sh", "-c", command]
            environment = []
        } else {
            argv = ["/bin/sh", "-c", command]
            environment = Environment.current.filter { !$0.hasPrefix("GESTURE_") } + assignments
        }
        do {
            let child = try Spawn.start(argv, environment: environment)
            jobs.append(Job(pid: child.pid, binding: binding, output: child.output, deadline: now + timeoutMilliseconds * 1000))
            logger.info("\(binding): started pid \(child.pid)")
            return child.output
        } catch {
            logger.error("\(binding): cannot start /bin/sh: \(error)")
            return nil
        }
    }

    /// Reads a job's output and logs complete lines; false once the pipe is closed.
    public func readOutput(_ fd: FileDescriptor) -> Bool {
        guard let i = jobs.firstIndex(where: { $0.output == fd }) else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n: Int
            do {
                n = try buffer.withUnsafeMutableBytes { (b) throws(Errno) -> Int in try Syscall.read(fd, into: b) }
            } catch .wouldBlock {
                return true
            } catch {
                logger.warning("\(jobs[i].binding): cannot read the command's output: \(error)")
                n = 0
            }
            if n > 0 {
                jobs[i].pending += buffer[0..<n]
                while let newline = jobs[i].pending.firstIndex(of: UInt8(ascii: "\n")) {
                    logLine(jobs[i].binding, jobs[i].pending[..<newline])
                    jobs[i].pending.removeSubrange(...newline)
                }
                continue
            }
            if !jobs[i].pending.isEmpty { logLine(jobs[i].binding, jobs[i].pending[...]) }
            jobs[i].pending = []
            jobs[i].outputOpen = false
            Syscall.close(fd)
            return false
        }
    }

    /// Collects every exited child (SIGCHLD arrived): none is left a zombie.
    public func reapExited() {
        while true {
            let exited: (pid: pid_t, status: String)?
            do { exited = try Spawn.reap() } catch {
                return logger.error("waitpid: \(error)")
            }
            guard let (pid, status) = exited else { return }
            guard let i = jobs.firstIndex(where: { $0.pid == pid }) else { continue }
            let job = jobs.remove(at: i)
            if job.outputOpen { Syscall.close(job.output) }
            logger.info("\(job.binding): pid \(pid) ended, \(status)")
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
}
