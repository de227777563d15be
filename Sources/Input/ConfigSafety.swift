import Config
#if canImport(Glibc)
import Glibc
#endif
import SystemIO
import SystemPackage

/// Run as root, gestured refuses a configuration that anyone but root could have
/// written or replaced (its commands run as root or as the configured user): the file and
/// every directory on the way to it must be root's and not writable by group or others,
/// the way sshd checks its users' files; a root-owned directory with the sticky bit
/// (/tmp) is fine, others cannot replace what is in it. A symbolic link on the way must be
/// root's too, and is followed by hand.
///
/// The path is walked one component at a time from `/`, each opened relative to the
/// directory before it (openat, O_NOFOLLOW) and judged by fstat of what was opened, and
/// the file is read from the descriptor that was checked: nothing can be swapped between
/// the check and the read (a link re-pointed meanwhile got another file accepted before).
public enum ConfigSafety {
    public struct Unsafe: Error, CustomStringConvertible {
        public var description: String
    }

    /// The most symbolic links followed on the way, as the kernel's own limit.
    static let maximumLinks = 40

    /// The configuration file, open for reading, once every step to it passed.
    public static func open(_ path: String) throws -> FileDescriptor {
        let start = path.hasPrefix("/") ? "" : try currentDirectory() + "/"
        var pending = components(start + path)
        var directories: [(fd: FileDescriptor, path: String)] = []
        defer { for directory in directories { Syscall.release(directory.fd) } }
        func restartAtRoot() throws {
            for directory in directories { Syscall.release(directory.fd) }
            directories = [(try Syscall.open("/", in: FileDescriptor(rawValue: AT_FDCWD), handleOnly: true), "/")]
            try judge(FileStatus(directories[0].fd), at: "/", as: "directory")
        }
        try restartAtRoot()
        var links = 0
        while !pending.isEmpty {
            let name = pending.removeFirst()
            if name == ".." {
                if directories.count > 1 { Syscall.release(directories.removeLast().fd) }
                continue
            }
            let parent = directories[directories.count - 1]
            let here = parent.path == "/" ? "/" + name : parent.path + "/" + name
            let handle: FileDescriptor
            do { handle = try Syscall.open(name, in: parent.fd, handleOnly: true) } catch {
                throw Unsafe(description: "\(here): error: cannot open it: \(error)")
            }
            let status = try FileStatus(handle)
            if status.isSymbolicLink {
                defer { Syscall.release(handle) }
                try judge(status, at: here, as: "symbolic link")
                links += 1
                guard links <= maximumLinks else { throw Unsafe(description: "\(path): error: more than \(maximumLinks) symbolic links on the way") }
                let target = try Syscall.readLink(handle)
                if target.hasPrefix("/") { try restartAtRoot() }
                pending = components(target) + pending
            } else if status.isDirectory, !pending.isEmpty {
                try judge(status, at: here, as: "directory")
                directories.append((handle, here))
            } else {
                defer { Syscall.release(handle) }
                guard pending.isEmpty else { throw Unsafe(description: "\(here): error: not a directory, on the way to \(path)") }
                // What is not a regular file is refused when it is read, with what it is.
                guard status.isRegularFile else { return try Syscall.open(name, in: parent.fd, handleOnly: true) }
                try judge(status, at: here, as: "file")
                let file = try Syscall.open(name, in: parent.fd, handleOnly: false)
                guard (try? FileStatus(file))?.identity == status.identity else {
                    Syscall.release(file)
                    throw Unsafe(description: "\(here): error: the file changed while it was checked; try again")
                }
                return file
            }
        }
        throw Unsafe(description: "\(path): error: a directory, not a regular file: give the path of the file itself")
    }

    /// The path's names, without the empty ones and `.`.
    private static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init).filter { $0 != "." }
    }

    private static func judge(_ status: FileStatus, at path: String, as what: String) throws {
        if status.owner != 0 {
            let fix = what == "symbolic link" ? "point the configuration at the file itself, or chown -h root \(path)" : "chown root \(path)"
            throw Unsafe(description: "\(path): error: the configuration \(what) is owned by uid \(status.owner), not root; its commands would run as root. Fix: \(fix)")
        }
        // A symlink's own mode means nothing (always 0777).
        if what != "symbolic link", status.isWritableByGroupOrOthers, !(what == "directory" && status.isSticky) {
            throw Unsafe(description: "\(path): error: the configuration \(what) is writable by group or others; its commands would run as root. Fix: chmod go-w \(path)")
        }
    }
}
