#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemPackage

/// Every system call the daemon makes goes through here once: EINTR is retried in one
/// place and failures become a typed `Errno`, as swift-system does.
enum Syscall {
    @discardableResult
    static func call<Result: BinaryInteger>(_ body: () -> Result) throws(Errno) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            let error = Errno(rawValue: errno)
            if error != .interrupted { throw error }
        }
    }
}

/// epoll(7): one wait for every descriptor the daemon watches.
enum Epoll {
    static func create() throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try Syscall.call { epoll_create1(Int32(EPOLL_CLOEXEC)) })
    }

    static func add(_ epoll: FileDescriptor, _ fd: FileDescriptor) throws(Errno) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = fd.rawValue
        try Syscall.call { epoll_ctl(epoll.rawValue, EPOLL_CTL_ADD, fd.rawValue, &event) }
    }

    static func remove(_ epoll: FileDescriptor, _ fd: FileDescriptor) {
        _ = epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, fd.rawValue, nil)
    }

    /// Waits for readable descriptors (-1: forever); returns how many of `events` are filled.
    static func wait(_ epoll: FileDescriptor, _ events: inout [epoll_event], timeoutMs: Int32) throws(Errno) -> Int {
        let capacity = Int32(events.count)
        return Int(try events.withUnsafeMutableBufferPointer { (buffer) throws(Errno) -> Int32 in
            try Syscall.call { epoll_wait(epoll.rawValue, buffer.baseAddress, capacity, timeoutMs) }
        })
    }
}

/// timerfd(2) on CLOCK_MONOTONIC, armed for the earliest recognizer deadline only.
enum TimerFD {
    static func create() throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try Syscall.call { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) })
    }

    /// Arms it for an absolute monotonic time in microseconds; nil disarms it.
    static func arm(_ fd: FileDescriptor, atMicroseconds time: Int64?) throws(Errno) {
        var spec = itimerspec()
        if let time {
            let t = max(time, 1)  // 0 would disarm
            spec.it_value = timespec(tv_sec: Int(t / 1_000_000), tv_nsec: Int(t % 1_000_000) * 1000)
        }
        try Syscall.call { timerfd_settime(fd.rawValue, Int32(TFD_TIMER_ABSTIME), &spec, nil) }
    }

    /// Consumes the expiry count so the descriptor stops being readable.
    static func drain(_ fd: FileDescriptor) {
        var expirations: UInt64 = 0
        _ = read(fd.rawValue, &expirations, MemoryLayout<UInt64>.size)
    }
}

/// signalfd(2): signals arrive as readable data in the loop, not as handlers.
enum SignalFD {
    static func create(_ signals: [Int32]) throws(Errno) -> FileDescriptor {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        try Syscall.call { sigprocmask(SIG_BLOCK, &set, nil) }
        return FileDescriptor(rawValue: try Syscall.call { signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) })
    }

    /// The next pending signal's number, or nil when none is left.
    static func next(_ fd: FileDescriptor) -> Int32? {
        var info = signalfd_siginfo()
        let n = read(fd.rawValue, &info, MemoryLayout<signalfd_siginfo>.size)
        return n == MemoryLayout<signalfd_siginfo>.size ? Int32(info.ssi_signo) : nil
    }
}

/// The monotonic clock, in microseconds: the time base of live events and deadlines.
func monotonicMicroseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
}
