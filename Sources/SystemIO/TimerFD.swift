#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemPackage

/// timerfd(2) on CLOCK_MONOTONIC, armed for the earliest deadline only.
public enum TimerFD {
    public static func create() throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try Syscall.call { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) })
    }

    /// Arms it for an absolute monotonic time in microseconds; nil disarms it.
    public static func arm(_ fd: FileDescriptor, atMicroseconds time: Int64?) throws(Errno) {
        var spec = itimerspec()
        if let time {
            let t = max(time, 1)  // 0 would disarm
            spec.it_value = timespec(tv_sec: Int(t / 1_000_000), tv_nsec: Int(t % 1_000_000) * 1000)
        }
        try Syscall.call { timerfd_settime(fd.rawValue, Int32(TFD_TIMER_ABSTIME), &spec, nil) }
    }

    /// Arms `fd` for `next`, unless it is armed for that already: most wake-ups (a frame)
    /// leave the earliest deadline as it was, and then make no system call. One armed for
    /// a time now past has fired (or is about to), so it is set again regardless.
    /// `armedAt` is the caller's record of what it is armed for.
    public static func rearm(_ fd: FileDescriptor, at next: Int64?, now: Int64, armedAt: inout Int64?) throws(Errno) {
        if next == armedAt, (armedAt ?? .max) > now { return }
        try arm(fd, atMicroseconds: next)
        armedAt = next
    }

    /// Consumes the expiry count so the descriptor stops being readable; nothing to
    /// consume (the timer was re-armed meanwhile) is not an error.
    public static func drain(_ fd: FileDescriptor) throws(Errno) {
        var expirations: UInt64 = 0
        do {
            _ = try withUnsafeMutableBytes(of: &expirations) { (buffer) throws(Errno) -> Int in try Syscall.read(fd, into: buffer) }
        } catch .wouldBlock {
            return
        }
    }
}
