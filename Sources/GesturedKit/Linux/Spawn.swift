#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemPackage

/// Starts `/bin/sh -c COMMAND` without blocking: posix_spawn, in its own process group,
/// stdin from /dev/null, stdout and stderr into a pipe the loop reads, the signal mask
/// and dispositions the daemon changed reset to defaults.
enum Spawn {
    struct Child {
        var pid: pid_t
        /// The read end of the child's stdout and stderr.
        var output: FileDescriptor
    }

    /// `argv` is run as is (argv[0] a path); `environment` as NAME=VALUE strings.
    static func start(_ argv: [String], environment: [String]) throws(Errno) -> Child {
        var pipeFDs: [Int32] = [-1, -1]
        try Syscall.call { pipe2(&pipeFDs, O_CLOEXEC | O_NONBLOCK) }
        let (readEnd, writeEnd) = (pipeFDs[0], pipeFDs[1])
        defer { close(writeEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid: pid_t = 0
        let rc = withCStrings(argv) { args in
            withCStrings(environment) { env in
                posix_spawn(&pid, argv[0], &actions, &attributes, args, env)
            }
        }
        guard rc == 0 else {
            close(readEnd)
            throw Errno(rawValue: rc)
        }
        return Child(pid: pid, output: FileDescriptor(rawValue: readEnd))
    }

    /// Collects one exited child, if any: its pid and how it ended.
    static func reap() -> (pid: pid_t, status: String)? {
        var status: Int32 = 0
        let pid = waitpid(-1, &status, WNOHANG)
        guard pid > 0 else { return nil }
        let code = (status >> 8) & 0xff, signal = status & 0x7f
        return (pid, signal == 0 ? "exit status \(code)" : "killed by signal \(signal)")
    }

    /// Signals a child's whole process group.
    static func kill(group pid: pid_t, _ signal: Int32) {
        _ = Glibc.kill(-pid, signal)
    }
}

/// A NULL-terminated array of C strings for the duration of `body`.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for p in pointers { free(p) } }
    return body(&pointers)
}
