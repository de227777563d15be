import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Whole-file reads and buffered writes over swift-system's file descriptors.
public enum Files {
    /// Why a file was not read.
    public enum ReadError: Error, CustomStringConvertible {
        case system(Errno)
        /// A FIFO, a device, a directory, a socket: `kind` names it.
        case notARegularFile(kind: String)
        /// More than `limit` bytes.
        case tooLarge(limit: Int)

        public var description: String {
            switch self {
            case .system(let errno): "cannot read: \(errno)"
            case .notARegularFile(let kind): "\(kind), not a regular file: give the path of the file itself"
            case .tooLarge(let limit): "more than \(limit) bytes, more than such a file may be: is it the right file?"
            }
        }
    }

    /// The file's bytes: only a regular file (a FIFO would block, a device never end),
    /// of at most `limit` bytes, checked on the descriptor opened (non-blocking, so
    /// opening a FIFO swapped in meanwhile cannot wait for a writer) and before any read;
    /// at most `limit` + 1 bytes are read, in case it grows.
    public static func read(_ path: String, atMost limit: Int) throws(ReadError) -> [UInt8] {
        // Refused before opening: opening some devices does something.
        var info = stat()
        do { try Syscall.call { stat(path, &info) } } catch { throw .system(error) }
        try requireRegular(info, atMost: limit)
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec, .nonBlocking])
        } catch { throw .system(Self.errno(error)) }
        defer { Syscall.release(fd) }
        return try read(fd, atMost: limit)
    }

    /// What an open descriptor holds, under the same rules.
    public static func read(_ fd: FileDescriptor, atMost limit: Int) throws(ReadError) -> [UInt8] {
        var info = stat()
        do { try Syscall.call { fstat(fd.rawValue, &info) } } catch { throw .system(error) }
        try requireRegular(info, atMost: limit)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n: Int
            do {
                n = try chunk.withUnsafeMutableBytes { (b) throws(Errno) -> Int in
                    try Syscall.call { pread(fd.rawValue, b.baseAddress, min(b.count, limit + 1 - bytes.count), off_t(bytes.count)) }
                }
            } catch { throw .system(Self.errno(error)) }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { throw .tooLarge(limit: limit) }
        }
    }

    private static func requireRegular(_ info: stat, atMost limit: Int) throws(ReadError) {
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            let name = switch kind {
            case S_IFIFO: "a FIFO"
            case S_IFCHR: "a character device"
            case S_IFBLK: "a block device"
            case S_IFDIR: "a directory"
            case S_IFSOCK: "a socket"
            default: "not a file"
            }
            throw .notARegularFile(kind: name)
        }
        if info.st_size > limit { throw .tooLarge(limit: limit) }
    }

    /// The names in a directory (not `.` and `..`), in the order readdir(3) gives them,
    /// at most `limit` of them.
    public static func names(in directory: String, atMost limit: Int) throws(Errno) -> [String] {
        guard let stream = opendir(directory) else { throw Errno(rawValue: Glibc.errno) }
        defer { closedir(stream) }
        var names: [String] = []
        while names.count < limit, let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether something is at `path` (stat(2): nothing is opened, a FIFO does not block).
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return (try? Syscall.call { stat(path, &info) }) != nil
    }

    /// One of gestured's own files (a helper, the KWin script), found from gestured's own
    /// directory: at `installed` relative to it when it is there (an installed system),
    /// else at `inBuild` relative to it (a build tree, `.build/<triple>/<configuration>/`).
    public static func besideProgram(installed: String, inBuild: String) -> String {
        let program = (try? Syscall.readLink("/proc/self/exe")) ?? "/usr/bin/gestured"
        let directory = program[..<(program.lastIndex(of: "/") ?? program.startIndex)]
        return exists("\(directory)/\(installed)") ? "\(directory)/\(installed)" : "\(directory)/\(inBuild)"
    }

    /// Why a file was not made.
    public enum CreateError: Error, CustomStringConvertible {
        case system(Errno)
        case symlink
        case notARegularFile
        case notYours(owner: uid_t)

        public var description: String {
            switch self {
            case .system(let errno): "\(errno)"
            case .symlink: "it is a symbolic link, and gestured writes through none: remove it or give another name"
            case .notARegularFile: "something other than a regular file is there: give another name"
            case .notYours(let owner): "it belongs to uid \(owner), not to you: remove it or give another name"
            }
        }
    }

    /// A file made anew for writing, with `permissions` (before the umask): never through
    /// a symlink (a link planted where the output goes cannot redirect it), never over
    /// someone else's file. A regular file of the caller's there is replaced.
    public static func create(_ path: String, permissions: FilePermissions) throws(CreateError) -> FileDescriptor {
        for _ in 0..<3 {
            do {
                return try FileDescriptor.open(FilePath(path), .writeOnly, options: [.create, .exclusiveCreate, .noFollow, .closeOnExec],
                                               permissions: permissions)
            } catch Errno.fileExists {
                var info = stat()
                guard (try? Syscall.call { lstat(path, &info) }) != nil else { continue }  // gone meanwhile
                switch info.st_mode & S_IFMT {
                case S_IFLNK: throw .symlink
                case S_IFREG: break
                default: throw .notARegularFile
                }
                if info.st_uid != geteuid() { throw .notYours(owner: info.st_uid) }
                do { try Syscall.call { unlink(path) } } catch .noSuchFileOrDirectory {} catch { throw .system(error) }
            } catch Errno.tooManySymbolicLinkLevels {
                throw .symlink
            } catch {
                throw .system(Self.errno(error))
            }
        }
        // Made again each time it was removed: someone is racing for the name.
        throw .system(.fileExists)
    }

    /// Removes the file, if it is there.
    public static func remove(_ path: String) throws(Errno) {
        do { try Syscall.call { unlink(path) } } catch .noSuchFileOrDirectory {}
    }

    /// The file made anew (see `create`) with `text` in it.
    public static func write(_ text: String, toFile path: String, permissions: FilePermissions) throws(CreateError) {
        let fd = try create(path, permissions: permissions)
        do { try write(text, to: fd) } catch {
            Syscall.release(fd)
            throw .system(error)
        }
        do { try Syscall.close(fd) } catch { throw .system(error) }
    }

    /// `path` replaced whole by a file with `text` in it, at once (written beside it,
    /// then renamed over it: a reader sees the old file or the new one, never a part),
    /// its folders made first when they are not there yet.
    public static func replace(_ path: String, with text: String, permissions: FilePermissions) throws(CreateError) {
        var folder = "", missing: [String] = []
        for part in path.split(separator: "/").dropLast() {
            folder += "/" + part
            if !exists(folder) { missing.append(folder) }
        }
        for folder in missing {
            do { try Syscall.call { mkdir(folder, 0o755) } } catch .fileExists {} catch { throw .system(error) }
        }
        let beside = path + ".new"
        try write(text, toFile: beside, permissions: permissions)
        do { try Syscall.call { rename(beside, path) } } catch { throw .system(error) }
    }

    /// Writes all of `text`, or says why it could not (a full disk).
    public static func write(_ text: String, to fd: FileDescriptor) throws(Errno) {
        do { _ = try fd.writeAll(text.utf8) } catch { throw Self.errno(error) }
    }

    private static func errno(_ error: any Error) -> Errno { error as? Errno ?? .ioError }
}
