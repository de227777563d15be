#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// inotify(7) on one file's path, for a follower that should wake when the file is
/// written, replaced, removed or made, and never otherwise (no polling between changes).
/// Two watches: the file itself, through symlinks, so that an edit of the file a dotfiles
/// link points to is seen; and the directory on the path nearest to the file that exists
/// (its own, else the ancestor in which the next missing component would be made), for
/// the file's name coming and going. After a change `rewatch` places both again: the
/// file may be a new one, the directory may have been made or removed.
public final class FileWatch {
    public let fd: FileDescriptor
    public let path: String
    private var fileWatch: Int32?
    /// The directory watched, and the name in it that leads to the file.
    private var directoryWatch: Int32?
    private var awaitedName = ""

    public init(path: String) throws(Errno) {
        self.path = path
        fd = FileDescriptor(rawValue: try Syscall.call { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
        rewatch()
    }

    deinit { Syscall.release(fd) }

    /// Watches the file (if it is there) and the nearest directory on its path that is.
    public func rewatch() {
        let file = try? add(path, IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        var name = Self.lastComponent(path)
        var directory = Self.parent(path)
        while directory != "/", (try? FileStatus(directory))?.isDirectory != true {
            name = Self.lastComponent(directory)
            directory = Self.parent(directory)
        }
        let entries = IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CLOSE_WRITE | IN_ATTRIB
        let made = try? add(directory, entries | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
        let old = [fileWatch, directoryWatch]
        fileWatch = file
        directoryWatch = made
        awaitedName = name
        // A watch no longer wanted is removed (its IN_IGNORED is then no one's, and skipped).
        for case let stale? in old where stale != file && stale != made { inotify_rm_watch(fd.rawValue, stale) }
    }

    /// Reads the events that came, at most 64 KiB a call (the rest stays readable): true
    /// when one of them may mean the file changed, a directory on its path came or went,
    /// or the kernel's queue overflowed; `rewatch` then.
    public func changed() -> Bool {
        var changed = false
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { buffer.deallocate() }
        for _ in 0..<16 {
            let count: Int
            do { count = try Syscall.read(fd, into: buffer) } catch { return changed }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let event = buffer.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                let nameBytes = UnsafeRawBufferPointer(rebasing: buffer[offset + header..<min(count, offset + header + Int(event.len))])
                offset += header + Int(event.len)
                if changes(event, name: nameBytes) { changed = true }
            }
        }
        return true  // more than the budget: taken as a change, the rest read at the next wake-up
    }

    private func changes(_ event: inotify_event, name: UnsafeRawBufferPointer) -> Bool {
        if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { return true }
        if event.wd == fileWatch { return true }
        guard event.wd == directoryWatch else { return false }
        if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { return true }
        // The name is NUL-padded to its length.
        let end = name.firstIndex(of: 0) ?? name.count
        return name[..<end].elementsEqual(awaitedName.utf8)
    }

    private func add(_ path: String, _ mask: Int32) throws(Errno) -> Int32 {
        try Syscall.call { inotify_add_watch(fd.rawValue, path, UInt32(mask)) }
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func lastComponent(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}
