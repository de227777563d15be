#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Who owns a file and who may write it (stat(2), following symlinks; fstat(2) of an
/// open descriptor, an O_PATH one of a symlink included).
public struct FileStatus: Sendable {
    public var owner: uid_t
    public var mode: mode_t
    /// Which file it is: the same pair is the same file.
    public var identity: [UInt64]
    /// What writing it changes: its size, and when its contents and its inode last changed.
    public var version: [Int64]

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
        version = [Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec), Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec)]
    }

    public var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
    public var isSymbolicLink: Bool { mode & S_IFMT == S_IFLNK }

    public var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
    public var isWritableByGroupOrOthers: Bool { mode & (S_IWGRP | S_IWOTH) != 0 }
    /// A directory whose entries only their owners may remove or rename (/tmp).
    public var isSticky: Bool { mode & S_ISVTX != 0 }
}
