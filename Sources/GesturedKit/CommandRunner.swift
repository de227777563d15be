#if canImport(Glibc)
import Glibc
#endif
import Logging
import SystemPackage

/// Runs bound commands without ever blocking the loop: each in its own process group,
/// at most `limit` at a time per binding (a gesture that fires meanwhile is skipped and
/// logged), killed at the timeout, reaped as soon as it exits, its output logged line by
/// line under the binding's name.
final class CommandRunner {
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
    var timeoutMilliseconds: Int64
    /// When running as root with `[daemon] user`, commands run as that user through
    /// setpriv (its groups, home and a clean environment).
    var user: (uid: uid_t, gid: gid_t)?
    private let logger: Logger

    init(timeoutMilliseconds: Int64, logger: Logger) {
        self.timeoutMilliseconds = timeoutMilliseconds
        self.logger = logger
    }

    var isIdle: Bool { jobs.isEmpty }
    var nextDeadline: Int64? { jobs.lazy.map(\.deadline).min() }

    /// Starts `/bin/sh -c command` with the variables added to its environment; returns
    /// the output descriptor to watch, or nil when skipped or failed (both logged).
    func start(binding: String, command: String, variables: [(String, String)], limit: Int, now: Int64) -> FileDescriptor? {
        let running = jobs.filter { $0.binding == binding }.count
        guard running < limit else {
            logger.notice("\(binding): skipped, \(running) command(s) still running (max_running = \(limit))")
            return nil
        }
        let assignments = variables.map { "\($0.0)=\($0.1)" }
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
            environment = Self.inheritedEnvironment() + assignments
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
    func readOutput(_ fd: FileDescriptor) -> Bool {
        guard let i = jobs.firstIndex(where: { $0.output == fd }) else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd.rawValue, $0.baseAddress, $0.count) }
            if n > 0 {
                jobs[i].pending += buffer[0..<n]
                while let newline = jobs[i].pending.firstIndex(of: UInt8(ascii: "\n")) {
                    logLine(jobs[i].binding, jobs[i].pending[..<newline])
                    jobs[i].pending.removeSubrange(...newline)
                }
                continue
            }
            if n < 0, errno == EAGAIN || errno == EINTR { return true }
            if !jobs[i].pending.isEmpty { logLine(jobs[i].binding, jobs[i].pending[...]) }
            jobs[i].pending = []
            jobs[i].outputOpen = false
            try? fd.close()
            return false
        }
    }

    /// Collects every exited child (SIGCHLD arrived): none is left a zombie.
    func reapExited() {
        while let (pid, status) = Spawn.reap() {
            guard let i = jobs.firstIndex(where: { $0.pid == pid }) else { continue }
            let job = jobs.remove(at: i)
            if job.outputOpen { try? job.output.close() }
            logger.info("\(job.binding): pid \(pid) ended, \(status)")
        }
    }

    /// Signals commands past their timeout: SIGTERM to the group, SIGKILL a second later.
    func enforceTimeouts(now: Int64) {
        for i in jobs.indices where jobs[i].deadline <= now {
            if jobs[i].terminated {
                Spawn.kill(group: jobs[i].pid, SIGKILL)
                jobs[i].deadline = Int64.max
            } else {
                logger.warning("\(jobs[i].binding): pid \(jobs[i].pid) still running after \(timeoutMilliseconds) ms, terminating it")
                Spawn.kill(group: jobs[i].pid, SIGTERM)
                jobs[i].terminated = true
                jobs[i].deadline = now + Self.killGraceMicroseconds
            }
        }
    }

    private func logLine(_ binding: String, _ bytes: ArraySlice<UInt8>) {
        logger.info("\(binding): \(String(decoding: bytes, as: UTF8.self))")
    }

    private static func inheritedEnvironment() -> [String] {
        var result: [String] = []
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if !s.hasPrefix("GESTURE_") { result.append(s) }
            p += 1
        }
        return result
    }
}

/// The uid and primary gid of a user name; nil when there is no such user.
func lookUpUser(_ name: String) -> (uid: uid_t, gid: gid_t)? {
    guard let entry = getpwnam(name) else { return nil }
    return (entry.pointee.pw_uid, entry.pointee.pw_gid)
}
