#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// A stream socket to a peer's path (a compositor's IPC socket), non-blocking from the
/// start and closed on exec: connected at once or not at all, written a short request at
/// a time. A peer that does not accept (its backlog full) never holds the caller: the
/// kernel answers a non-blocking connect to such a socket with EAGAIN at once, where a
/// blocking one waits until the peer accepts.
public enum UnixSocket {
    /// Connects to `path`; the error when nothing listens there, when it does not accept
    /// now (`.wouldBlock`), or when the path is too long.
    public static func connect(_ path: String) throws(Errno) -> FileDescriptor {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { throw .fileNameTooLong }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let fd = FileDescriptor(rawValue: try Syscall.call {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        })
        do {
            _ = try Syscall.call {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
            }
        } catch {
            Syscall.release(fd)
            throw error
        }
        return fd
    }

    /// Writes all of `bytes` (a request of a few dozen bytes, which a socket's buffer
    /// always has room for); a short write is an error.
    public static func send(_ fd: FileDescriptor, _ bytes: [UInt8]) throws(Errno) {
        let written = bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in try Syscall.call { Glibc.send(fd.rawValue, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL)) } }
        }
        guard try written.get() == bytes.count else { throw .wouldBlock }
    }
}
