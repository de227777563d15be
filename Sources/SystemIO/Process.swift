#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Users and file ownership: what the configuration's safety checks and `[daemon] user` ask.
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
}

/// Who owns a file and who may write it (stat(2), following symlinks; fstat(2) of an
/// open descriptor, an O_PATH one of a symlink included).
public struct FileStatus: Sendable {
    public var owner: uid_t
    public var mode: mode_t
    /// Which file it is: the same pair is the same file.
    public var identity: [UInt64]

    public init(_ path: String) throws(Errno) {
        var info = stat()
        try Syscall.call { stat(path, &info) }
        self.init(info)
    }

    public init(_ fd: FileDescriptor) throws(Errno) {
        var info = stat()
        try Syscall.call { fstat(fd.rawValue, &info) }
        self.init(info)
    }

    private init(_ info: stat) {
        owner = info.st_uid
        mode = info.st_mode
        identity = [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    public var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
    public var isSymbolicLink: Bool { mode & S_IFMT == S_IFLNK }

    public var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
    public var isWritableByGroupOrOthers: Bool { mode & (S_IWGRP | S_IWOTH) != 0 }
    /// A directory whose entries only their owners may remove or rename (/tmp).
    public var isSticky: Bool { mode & S_ISVTX != 0 }
}

/// The working directory (getcwd(3)).
public func currentDirectory() throws(Errno) -> String {
    guard let directory = getcwd(nil, 0) else { throw Errno(rawValue: errno) }
    defer { free(directory) }
    return String(cString: directory)
}

/// The process's environment, as `NAME=VALUE` strings.
public enum Environment {
    public static var current: [String] {
        var result: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            result.append(String(cString: pointer))
            entry += 1
        }
        return result
    }

    public static func has(_ name: String) -> Bool { getenv(name) != nil }
}
