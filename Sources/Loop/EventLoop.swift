import CLinux
import Effects
#if canImport(Glibc)
import Glibc
#endif
import Logging
import SystemIO
import SystemPackage

/// One epoll wait for everything: devices, the udev monitor, the timer, signals, the bus,
/// command output. Handlers run when their descriptor is readable (or writable, for the
/// bus with output queued); nothing else wakes it. Those watched `first` (the
/// touchscreens) run before the others that are ready at the same wake-up: a bus flooded
/// with calls or a command's output spends its budget after the touches.
final class EventLoop {
    private let epoll: FileDescriptor
    private var handlers: [Int32: () -> Void] = [:]
    private var first = Set<Int32>()
    private var ready = [epoll_event](repeating: epoll_event(), count: 32)
    var running = true
    private let logger: Logger

    init(logger: Logger) throws(Errno) {
        epoll = try Epoll.create()
        self.logger = logger
    }

    deinit { Syscall.release(epoll) }

    func watch(_ fd: FileDescriptor, writable: Bool = false, first: Bool = false, _ handler: @escaping () -> Void) throws(Errno) {
        try Epoll.add(epoll, fd, writable: writable)
        handlers[fd.rawValue] = handler
        if first { self.first.insert(fd.rawValue) }
    }

    /// Also wakes for room to write, or no longer.
    func setWritable(_ fd: FileDescriptor, _ writable: Bool) {
        do { try Epoll.modify(epoll, fd, writable: writable) } catch {
            logger.error("epoll: cannot change what fd \(fd.rawValue) is watched for: \(error)")
        }
    }

    /// Stops watching. A descriptor already closed has left epoll by itself (EBADF), and
    /// one never watched (ENOENT) has nothing to remove: neither is an error here.
    func unwatch(_ fd: FileDescriptor) {
        handlers[fd.rawValue] = nil
        first.remove(fd.rawValue)
        do { try Epoll.remove(epoll, fd) } catch {
            if error != .badFileDescriptor, error != .noSuchFileOrDirectory { logger.error("epoll: cannot unwatch fd \(fd.rawValue): \(error)") }
        }
    }

    /// A source that says what to watch (a bus connection, a desktop's socket): its
    /// descriptor watched as it says, and its `process` run when it is ready. The loop's
    /// owner runs it at its deadline too.
    func follow(_ source: BusSource, _ what: String) {
        source.onWatchChange = { [unowned self, unowned source] old, new in
            if let old, old.fd != new?.fd { unwatch(old.fd) }
            guard let new else { return }
            if old?.fd == new.fd {
                setWritable(new.fd, new.writable)
            } else {
                do { try watch(new.fd, writable: new.writable) { [unowned source] in source.process() } } catch {
                    logger.error("cannot watch \(what): \(error)")
                }
            }
        }
    }

    /// Waits and dispatches until `running` is false; `afterEach` runs after every wake-up.
    func run(afterEach: () -> Void) throws(Errno) {
        while running {
            let n = try Epoll.wait(epoll, &ready, timeoutMs: -1)
            for i in 0..<n where first.contains(ready[i].data.fd) {
                handlers[ready[i].data.fd]?()
            }
            for i in 0..<n where !first.contains(ready[i].data.fd) {
                handlers[ready[i].data.fd]?()
            }
            afterEach()
        }
    }
}
