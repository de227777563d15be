import CLinux
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// One epoll wait for everything: devices, the udev monitor, the timer, signals, the bus,
/// command output. Handlers run when their descriptor is readable; nothing else wakes it.
final class EventLoop {
    private let epoll: FileDescriptor
    private var handlers: [Int32: () -> Void] = [:]
    private var ready = [epoll_event](repeating: epoll_event(), count: 32)
    var running = true

    init() throws(Errno) {
        epoll = try Epoll.create()
    }

    deinit { try? epoll.close() }

    func watch(_ fd: FileDescriptor, _ handler: @escaping () -> Void) throws(Errno) {
        try Epoll.add(epoll, fd)
        handlers[fd.rawValue] = handler
    }

    func unwatch(_ fd: FileDescriptor) {
        Epoll.remove(epoll, fd)
        handlers[fd.rawValue] = nil
    }

    /// Waits and dispatches until `running` is false; `afterEach` runs after every wake-up.
    func run(afterEach: () -> Void) throws(Errno) {
        while running {
            let n = try Epoll.wait(epoll, &ready, timeoutMs: -1)
            for i in 0..<n {
                handlers[ready[i].data.fd]?()
            }
            afterEach()
        }
    }
}
