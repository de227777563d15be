import Gestures
import SystemIO
import SystemPackage

/// Hyprland's event socket (`.socket2.sock`): a line per event, `EVENT>>DATA`; the
/// application in front from `activewindow>>CLASS,TITLE` (the class is the Wayland app
/// id, or the X11 class; an empty one is no window in front). A line over 4 KB is
/// skipped. Until Hyprland first says, the application in front is not known.
public final class HyprlandWatcher: AppWatcher {
    public let source = "hyprland"
    public let fd: FileDescriptor
    private var buffer = SocketBuffer(largest: 4096)

    /// `$XDG_RUNTIME_DIR/hypr/SIGNATURE/.socket2.sock`, or under /tmp/hypr for Hyprland
    /// before 0.40; nil without a signature.
    public static func socketPath(signature: String?, runtimeDirectory: String?) -> [String] {
        guard let signature, !signature.isEmpty, !signature.contains("/") else { return [] }
        return (runtimeDirectory.map { ["\($0)/hypr/\(signature)/.socket2.sock"] } ?? []) + ["/tmp/hypr/\(signature)/.socket2.sock"]
    }

    public init(path: String) throws(AppWatcherError) {
        do { fd = try UnixSocket.connect(path) } catch { throw AppWatcherError("cannot connect to \(path) (\(error))") }
    }

    public func close() { Syscall.release(fd) }

    public func read() throws(AppWatcherError) -> DesktopNews {
        try buffer.fill(from: fd)
        var found: AppInFront??
        buffer.takeLines { line in
            if let app = Self.app(fromLine: line) { found = .some(app) }
        }
        return DesktopNews(app: found)
    }

    /// `activewindow>>CLASS,TITLE`: the application (nil inside for none); nil for any other line.
    static func app(fromLine line: ArraySlice<UInt8>) -> AppInFront?? {
        let prefix = Array("activewindow>>".utf8)
        guard line.starts(with: prefix) else { return nil }
        let rest = line.dropFirst(prefix.count)
        let windowClass = rest.prefix { $0 != UInt8(ascii: ",") }
        guard !windowClass.isEmpty else { return .some(nil) }
        guard windowClass.count <= AppInFront.longestName, let name = String(validating: windowClass, as: UTF8.self) else { return nil }
        return .some(AppInFront(appID: name, source: "hyprland"))
    }
}
