import SystemIO

/// Run as root, the daemon refuses a configuration that anyone but root could have
/// written (its commands run as root or as the configured user), as sshd does for its
/// own files.
enum ConfigSafety {
    struct Unsafe: Error, CustomStringConvertible {
        var description: String
    }

    static func check(_ path: String) throws {
        guard Users.effectiveID == 0 else { return }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        for (file, what) in [(path, "file"), (directory.isEmpty ? "/" : directory, "directory")] {
            // A file that cannot be examined is reported when it is read.
            guard let status = try? FileStatus(file) else { continue }
            if status.owner != 0 {
                throw Unsafe(description: "\(file): error: the configuration \(what) is owned by uid \(status.owner), not root; its commands would run as root. Fix: chown root \(file)")
            }
            if status.isWritableByGroupOrOthers {
                throw Unsafe(description: "\(file): error: the configuration \(what) is writable by group or others; its commands would run as root. Fix: chmod go-w \(file)")
            }
        }
    }
}
