#if canImport(Glibc)
import Glibc
#endif
import Gestures
import SystemIO
import SystemPackage
import TouchCore

/// A wlroots compositor's activated toplevel (zwlr_foreign_toplevel_manager_v1: labwc,
/// wayfire, river, sway), through the helper `gestured-toplevels`, which links
/// libwayland-client and prints a line per change: `app APP_ID` or `none`; anything else
/// is its word on why it ends, kept for the error. Lines over 4 KB are skipped.
public final class ToplevelWatcher: AppWatcher {
    public let source = "wlr-foreign-toplevel"
    public let fd: FileDescriptor
    private let pid: pid_t
    private var buffer = SocketBuffer(largest: 4096)
    private var lastWords = ""

    /// The helper: installed in ../libexec/gestured/ from gestured's own directory, or
    /// beside it in a build tree.
    public static let helper = Files.besideProgram(installed: "../libexec/gestured/gestured-toplevels", inBuild: "gestured-toplevels")

    public init() throws(AppWatcherError) {
        let child: Spawn.Child
        do { child = try Spawn.start([Self.helper], environment: Environment.current) } catch {
            throw AppWatcherError("cannot start \(Self.helper) (\(error))")
        }
        pid = child.pid
        fd = child.output
        do {
            let flags = try Syscall.call { fcntl(fd.rawValue, F_GETFL) }
            _ = try Syscall.call { fcntl(fd.rawValue, F_SETFL, flags | O_NONBLOCK) }
        } catch {
            close()
            throw AppWatcherError("cannot read its helper (\(error))")
        }
    }

    /// Stops the helper and collects it (the daemon's own reaping may have done so).
    public func close() {
        try? Spawn.kill(group: pid, SIGKILL)
        Syscall.release(fd)
        _ = try? Spawn.wait(pid)
    }

    public func read() throws(AppWatcherError) -> DesktopNews {
        do { try buffer.fill(from: fd) } catch {
            throw AppWatcherError(lastWords.isEmpty ? "its helper ended" : lastWords)
        }
        var found: AppInFront??
        var lastWords = lastWords
        defer { self.lastWords = lastWords }
        buffer.takeLines { line in
            let text = String(decoding: line, as: UTF8.self)
            if text == "none" {
                found = .some(nil)
            } else if text.hasPrefix("app ") {
                let name = String(text.dropFirst(4))
                found = .some(name.isEmpty || name.utf8.count > AppInFront.longestName ? nil : AppInFront(appID: name, source: source))
            } else {
                lastWords = printable(text, limit: 200)
            }
        }
        return DesktopNews(app: found)
    }
}
