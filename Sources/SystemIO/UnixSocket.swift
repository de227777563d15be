#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// A stream socket to a peer's path (a compositor's IPC socket), non-blocking and
/// closed on exec: connected at once or not at all, written a short request at a time.
public enum UnixSocket {
    /// Connects to `path`; the error when nothing listens there (or the path is too long).
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
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        })
        do {
            _ = try Syscall.call {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
            }
            let flags = try Syscall.call { fcntl(fd.rawValue, F_GETFL) }
            _ = try Syscall.call { fcntl(fd.rawValue, F_SETFL, flags | O_NONBLOCK) }
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
