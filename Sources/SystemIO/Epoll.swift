#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemPackage

/// epoll(7): one wait for every descriptor the daemon watches.
public enum Epoll {
    public static func create() throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try Syscall.call { epoll_create1(Int32(EPOLL_CLOEXEC)) })
    }

    /// Watches `fd` for input, and for room to write when `writable`.
    public static func add(_ epoll: FileDescriptor, _ fd: FileDescriptor, writable: Bool = false) throws(Errno) {
        var event = Self.event(fd, writable: writable)
        try Syscall.call { epoll_ctl(epoll.rawValue, EPOLL_CTL_ADD, fd.rawValue, &event) }
    }

    public static func modify(_ epoll: FileDescriptor, _ fd: FileDescriptor, writable: Bool) throws(Errno) {
        var event = Self.event(fd, writable: writable)
        try Syscall.call { epoll_ctl(epoll.rawValue, EPOLL_CTL_MOD, fd.rawValue, &event) }
    }

    private static func event(_ fd: FileDescriptor, writable: Bool) -> epoll_event {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | (writable ? EPOLLOUT.rawValue : 0)
        event.data.fd = fd.rawValue
        return event
    }

    public static func remove(_ epoll: FileDescriptor, _ fd: FileDescriptor) throws(Errno) {
        try Syscall.call { epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, fd.rawValue, nil) }
    }

    /// Waits for readable descriptors (-1: forever); returns how many of `events` are filled.
    public static func wait(_ epoll: FileDescriptor, _ events: inout [epoll_event], timeoutMs: Int32) throws(Errno) -> Int {
        let capacity = Int32(events.count)
        return Int(try events.withUnsafeMutableBufferPointer { (buffer) throws(Errno) -> Int32 in
            try Syscall.call { epoll_wait(epoll.rawValue, buffer.baseAddress, capacity, timeoutMs) }
        })
    }
}
