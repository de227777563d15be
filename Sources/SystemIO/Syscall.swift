#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemPackage

/// Every system call goes through here once, as swift-nio's `syscall(blocking:)`: EINTR
/// is retried in one place, failures become a typed `Errno`, no return code is dropped.
public enum Syscall {
    /// Calls `body` until it is not interrupted; a negative result throws `errno`.
    @discardableResult
    public static func call<Result: BinaryInteger>(_ body: () -> Result) throws(Errno) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            let error = Errno(rawValue: errno)
            if error != .interrupted { throw error }
        }
    }

    /// For functions that return an error number instead of setting errno (posix_spawn*).
    public static func check(_ rc: Int32) throws(Errno) {
        if rc != 0 { throw Errno(rawValue: rc) }
    }

    /// Reads what is there; 0 at end of file. `Errno.wouldBlock` when a non-blocking
    /// descriptor has nothing now.
    public static func read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try call { Glibc.read(fd.rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Waits until one of `fds` has something to read (poll(2)), and says which: for a
    /// command that reads a device and has little else to wait for.
    @discardableResult
    public static func waitReadable(_ fds: FileDescriptor...) throws(Errno) -> [Bool] {
        try waitReadable(fds, timeoutMs: nil)
    }

    /// Waits at most `timeoutMs` (nil: as long as it takes) for any of `fds` to have
    /// something to read (or its end): which have; all false when the time ran out.
    public static func waitReadable(_ fds: [FileDescriptor], timeoutMs: Int32?) throws(Errno) -> [Bool] {
        var entries = fds.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
        _ = try call { poll(&entries, nfds_t(entries.count), timeoutMs.map { max(0, $0) } ?? -1) }
        return entries.map { $0.revents != 0 }
    }

    /// Waits at most `timeoutMs` for `fd` to have something to read (or its end); false
    /// when the time ran out.
    public static func waitReadable(_ fd: FileDescriptor, timeoutMs: Int32) throws(Errno) -> Bool {
        try waitReadable([fd], timeoutMs: timeoutMs)[0]
    }

    /// `name` in the directory `directory` (openat(2)): with `handleOnly`, an O_PATH
    /// handle that reads nothing (fstat and readlink work on it); never through a symlink
    /// as the last component.
    public static func open(_ name: String, in directory: FileDescriptor, handleOnly: Bool) throws(Errno) -> FileDescriptor {
        let flags = (handleOnly ? CLinux_O_PATH : O_RDONLY | O_NONBLOCK | O_NOCTTY) | O_NOFOLLOW | O_CLOEXEC
        return FileDescriptor(rawValue: try call { openat(directory.rawValue, name, flags) })
    }

    /// Where the symlink `path` points (`/proc/self/exe`: this program's file).
    public static func readLink(_ path: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = try call { readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Where a symlink opened with `open(_:in:handleOnly: true)` points.
    public static func readLink(_ link: FileDescriptor) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = try call { readlinkat(link.rawValue, "", &buffer, buffer.count - 1) }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Closes a file written through `fd`: an error here (EIO, a full disk or quota on
    /// NFS) is data lost, and is thrown. Linux releases the descriptor even then (EINTR
    /// included), so it is never retried.
    public static func close(_ fd: FileDescriptor) throws(Errno) {
        if Glibc.close(fd.rawValue) != 0 { throw Errno(rawValue: errno) }
    }

    /// Closes a descriptor nothing was written through (a device read, a pipe's read
    /// end, epoll), or whose writes already failed: close can report nothing then that
    /// would be lost.
    public static func release(_ fd: FileDescriptor) {
        _ = Glibc.close(fd.rawValue)
    }

    /// A pipe, close-on-exec, with only the read end non-blocking: the child writes to a
    /// blocking end, as programs expect.
    public static func pipe() throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        try call { pipe2(&fds, O_CLOEXEC) }
        let flags = try call { fcntl(fds[0], F_GETFL) }
        try call { fcntl(fds[0], F_SETFL, flags | O_NONBLOCK) }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    /// A pipe to a child's stdin, close-on-exec, with only the write end (ours)
    /// non-blocking: a child that stops reading never holds up the loop.
    public static func pipeToChild() throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        try call { pipe2(&fds, O_CLOEXEC) }
        let flags = try call { fcntl(fds[1], F_GETFL) }
        try call { fcntl(fds[1], F_SETFL, flags | O_NONBLOCK) }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    /// One write(2): how much went (a non-blocking descriptor may take less, or throw
    /// `.wouldBlock`).
    public static func write(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try call { Glibc.write(fd.rawValue, bytes.baseAddress, bytes.count) }
    }
}

/// The wall clock, in microseconds since 1970: only for saying when something happened.
public func realtimeMicroseconds() -> Int64 {
    var ts = timespec()
    guard (try? Syscall.call { clock_gettime(CLOCK_REALTIME, &ts) }) != nil else { return 0 }
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
}

/// The monotonic clock, in microseconds: the time base of live events and deadlines.
/// CLOCK_MONOTONIC cannot fail on Linux; if it ever did, time would stand still, not crash.
public func monotonicMicroseconds() -> Int64 {
    var ts = timespec()
    guard (try? Syscall.call { clock_gettime(CLOCK_MONOTONIC, &ts) }) != nil else { return 0 }
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
}
