#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Users: who the daemon runs as, and who `[daemon] user` names.
public enum Users {
    public struct Account: Equatable, Sendable {
        public var uid: uid_t
        public var gid: gid_t
    }

    /// The effective user id: 0 when running as root.
    public static var effectiveID: uid_t { geteuid() }

    /// The uid and primary gid of a user name; nil when there is no such user. A failing
    /// lookup (NSS error) throws rather than passing for a missing user.
    public static func lookUp(_ name: String) throws(Errno) -> Account? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        while true {
            let rc = getpwnam_r(name, &entry, &buffer, buffer.count, &result)
            if rc == ERANGE, buffer.count < 1 << 20 {
                buffer = [CChar](repeating: 0, count: buffer.count * 4)
                continue
            }
            if rc == EINTR { continue }
            try Syscall.check(rc)
            return result == nil ? nil : Account(uid: entry.pw_uid, gid: entry.pw_gid)
        }
    }

    /// A uid's user name; nil when none has it (or the lookup fails).
    public static func name(of uid: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }
}
