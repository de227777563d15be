#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemPackage

/// Starts a program without blocking: posix_spawn, in its own session and process group,
/// stdin from /dev/null, stdout and stderr into a pipe the loop reads, the signal mask and
/// dispositions the daemon changed reset to defaults.
public enum Spawn {
    public struct Child {
        public var pid: pid_t
        /// The read end of the child's stdout and stderr (non-blocking).
        public var output: FileDescriptor
    }

    /// `argv` is run as is: argv[0] a path, or with `searchPath` a name looked up on the
    /// daemon's PATH (posix_spawnp); `environment` as NAME=VALUE strings.
    public static func start(_ argv: [String], environment: [String], searchPath: Bool = false) throws(Errno) -> Child {
        let pipe = try Syscall.pipe()
        defer { Syscall.close(pipe.write) }
        do {
            let pid = try spawn(argv, environment: environment, output: pipe.write, searchPath: searchPath)
            return Child(pid: pid, output: pipe.read)
        } catch {
            Syscall.close(pipe.read)
            throw error
        }
    }

    private static func spawn(_ argv: [String], environment: [String], output: FileDescriptor, searchPath: Bool) throws(Errno) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        try Syscall.check(posix_spawn_file_actions_init(&actions))
        defer { posix_spawn_file_actions_destroy(&actions) }
        try Syscall.check(posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0))
        try Syscall.check(posix_spawn_file_actions_adddup2(&actions, output.rawValue, 1))
        try Syscall.check(posix_spawn_file_actions_adddup2(&actions, output.rawValue, 2))

        var attributes = posix_spawnattr_t()
        try Syscall.check(posix_spawnattr_init(&attributes))
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var defaults = sigset_t()
        try Syscall.call { sigemptyset(&noSignals) }
        try Syscall.call { sigfillset(&defaults) }
        try Syscall.check(posix_spawnattr_setsigmask(&attributes, &noSignals))
        try Syscall.check(posix_spawnattr_setsigdefault(&attributes, &defaults))
        // A session of its own: its own process group (signalled whole at the timeout), and
        // no controlling terminal inherited from a daemon started from one.
        try Syscall.check(posix_spawnattr_setflags(&attributes, CLinux_POSIX_SPAWN_SETSID | Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)))

        var pid: pid_t = 0
        let rc = withCStrings(argv) { args in
            withCStrings(environment) { env in
                searchPath ? posix_spawnp(&pid, argv[0], &actions, &attributes, args, env)
                    : posix_spawn(&pid, argv[0], &actions, &attributes, args, env)
            }
        }
        try Syscall.check(rc)
        return pid
    }

    /// Collects one exited child, if any: its pid and how it ended. No children at all
    /// (ECHILD) is nothing to collect.
    public static func reap() throws(Errno) -> (pid: pid_t, status: String)? {
        var status: Int32 = 0
        let pid: pid_t
        do {
            pid = try Syscall.call { waitpid(-1, &status, WNOHANG) }
        } catch .noChildProcess {
            return nil
        }
        guard pid > 0 else { return nil }
        let code = (status >> 8) & 0xff, signal = status & 0x7f
        return (pid, signal == 0 ? "exit status \(code)" : "killed by signal \(signal)")
    }

    /// Signals a child's whole process group; a group already gone is not an error.
    public static func kill(group pid: pid_t, _ signal: Int32) throws(Errno) {
        do {
            try Syscall.call { Glibc.kill(-pid, signal) }
        } catch .noSuchProcess {
            return
        }
    }
}

/// A NULL-terminated array of C strings for the duration of `body`.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for p in pointers { free(p) } }
    return body(&pointers)
}
