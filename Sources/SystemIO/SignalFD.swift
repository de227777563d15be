#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemPackage

/// signalfd(2): signals arrive as readable data in the loop, not as handlers.
public enum SignalFD {
    public static func create(_ signals: [Int32]) throws(Errno) -> FileDescriptor {
        var set = sigset_t()
        try Syscall.call { sigemptyset(&set) }
        for s in signals { try Syscall.call { sigaddset(&set, s) } }
        try Syscall.check(pthread_sigmask(SIG_BLOCK, &set, nil))
        return FileDescriptor(rawValue: try Syscall.call { signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) })
    }

    /// The next pending signal's number; nil when none is left.
    public static func next(_ fd: FileDescriptor) throws(Errno) -> Int32? {
        var info = signalfd_siginfo()
        let n: Int
        do {
            n = try withUnsafeMutableBytes(of: &info) { (buffer) throws(Errno) -> Int in try Syscall.read(fd, into: buffer) }
        } catch .wouldBlock {
            return nil
        }
        return n == MemoryLayout<signalfd_siginfo>.size ? Int32(info.ssi_signo) : nil
    }
}
