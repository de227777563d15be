#if canImport(Glibc)
import Glibc
#endif

/// Run as root, the daemon refuses a configuration that anyone but root could have
/// written (its commands run as root or as the configured user), as sshd does.
enum ConfigSafety {
    struct Unsafe: Error, CustomStringConvertible {
        var description: String
    }

    static func check(_ path: String) throws {
        guard geteuid() == 0 else { return }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        for (file, what) in [(path, "file"), (directory.isEmpty ? "/" : directory, "directory")] {
            var info = stat()
            guard stat(file, &info) == 0 else { continue }  // reading the file reports it
            if info.st_uid != 0 {
                throw Unsafe(description: "\(file): error: the configuration \(what) is owned by uid \(info.st_uid), not root; its commands would run as root. Fix: chown root \(file)")
            }
            if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
                throw Unsafe(description: "\(file): error: the configuration \(what) is writable by group or others; its commands would run as root. Fix: chmod go-w \(file)")
            }
        }
    }
}
