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
    /// daemon's PATH (posix_spawnp); `environment` as NAME=VALUE strings; stdin `input`, or
    /// /dev/null.
    public static func start(_ argv: [String], environment: [String], searchPath: Bool = false,
                             input: FileDescriptor? = nil) throws(Errno) -> Child {
        let pipe = try Syscall.pipe()
        defer { Syscall.release(pipe.write) }
        do {
            let pid = try spawn(argv, environment: environment, input: input, output: pipe.write, searchPath: searchPath)
            return Child(pid: pid, output: pipe.read)
        } catch {
            Syscall.release(pipe.read)
            throw error
        }
    }

    /// This process becomes `argv` (execv: argv[0] a path), keeping its environment and
    /// its terminal; returns only with why it could not.
    public static func become(_ argv: [String]) -> Errno {
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        execv(argv[0], &cArguments)
        return Errno(rawValue: errno)
    }

    private static func spawn(_ argv: [String], environment: [String], input: FileDescriptor?, output: FileDescriptor,
                              searchPath: Bool) throws(Errno) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        try Syscall.check(posix_spawn_file_actions_init(&actions))
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            try Syscall.check(posix_spawn_file_actions_adddup2(&actions, input.rawValue, 0))
        } else {
            try Syscall.check(posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0))
        }
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

    /// How a child ended.
    public struct ExitStatus: Equatable, Sendable, CustomStringConvertible {
        /// Its exit status, or nil when a signal killed it.
        public var code: Int32?
        public var signal: Int32?

        init(waitStatus status: Int32) {
            let signal = status & 0x7f
            self.signal = signal == 0 ? nil : signal
            code = signal == 0 ? (status >> 8) & 0xff : nil
        }

        public var description: String { signal.map { "killed by signal \($0)" } ?? "exit status \(code ?? 0)" }
    }

    /// Collects one exited child, any (`pid` nil) or that one, without waiting: its pid
    /// and how it ended. No such children (ECHILD) is nothing to collect.
    public static func reap(_ pid: pid_t? = nil) throws(Errno) -> (pid: pid_t, status: ExitStatus)? {
        var status: Int32 = 0
        let reaped: pid_t
        do {
            reaped = try Syscall.call { waitpid(pid ?? -1, &status, WNOHANG) }
        } catch .noChildProcess {
            return nil
        }
        guard reaped > 0 else { return nil }
        return (reaped, ExitStatus(waitStatus: status))
    }

    /// Waits for that child to exit, and collects it.
    public static func wait(_ pid: pid_t) throws(Errno) -> ExitStatus {
        var status: Int32 = 0
        _ = try Syscall.call { waitpid(pid, &status, 0) }
        return ExitStatus(waitStatus: status)
    }

    /// Runs `body` in a forked copy of this process, its stderr on /dev/null and killed
    /// with it, and returns what `body` returned (through a pipe) and how the copy ended:
    /// work that may abort (a C++ library's assertion) is tried without ending this
    /// process. Only for a process with one thread (fork copies the calling one only).
    public static func inForkedCopy(_ body: () -> [UInt8]) throws(Errno) -> (output: [UInt8], status: ExitStatus) {
        let (readEnd, writeEnd) = try Syscall.pipe()
        let pid = Glibc.fork()
        if pid == 0 {
            Syscall.release(readEnd)
            _ = CLinux_die_with_parent()
            let null = open("/dev/null", O_WRONLY)
            if null >= 0 { _ = dup2(null, STDERR_FILENO) }
            let bytes = body()
            _ = try? bytes.withUnsafeBytes { try writeEnd.writeAll($0) }
            _exit(0)
        }
        Syscall.release(writeEnd)
        defer { Syscall.release(readEnd) }
        guard pid > 0 else { throw Errno(rawValue: errno) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        // The read end is non-blocking (see `Syscall.pipe`): wait for each chunk.
        reading: while true {
            do {
                let n = try chunk.withUnsafeMutableBytes { (b) throws(Errno) -> Int in try Syscall.read(readEnd, into: b) }
                if n == 0 { break }
                output += chunk[0..<n]
            } catch .wouldBlock {
                guard (try? Syscall.waitReadable(readEnd)) != nil else { break reading }
            } catch {
                break
            }
        }
        return (output, try wait(pid))
    }

    /// A file in memory holding `bytes`, read from its start: a child's stdin.
    public static func memoryFile(_ bytes: [UInt8]) throws(Errno) -> FileDescriptor {
        let fd = FileDescriptor(rawValue: try Syscall.call { memfd_create("gestured", CLinux_MFD_CLOEXEC) })
        do {
            _ = try bytes.withUnsafeBytes { try fd.writeAll($0) }
            _ = try Syscall.call { lseek(fd.rawValue, 0, SEEK_SET) }
        } catch {
            Syscall.release(fd)
            throw error as? Errno ?? .ioError
        }
        return fd
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
