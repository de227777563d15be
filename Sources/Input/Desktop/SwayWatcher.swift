import FoundationEssentials
import Gestures
import SystemIO
import SystemPackage

/// sway's (and i3's) IPC socket: subscribed to window, workspace and output events,
/// with the tree asked for at the start and whenever windows, workspaces or outputs
/// change other than in name (an empty workspace has no application in front). sway's
/// tree also says where its windows are (`WindowLayout`); i3's has no `visible`, so in i3
/// only the focused window is known. A window resized without another event is known
/// at the next one. A message is `i3-ipc`, its payload's length and its type (both
/// 32-bit, the machine's order), then JSON; one over 1 MB is skipped (what was known
/// stands until the next event), and a header that announces more than 64 MB is no
/// sway's: the connection is given up (and made again by the follower).
///
/// A tree is read whole in one wake-up, which costs the loop about 0.1 s a megabyte:
/// after each, the next is asked only once nine times as long has passed, so that
/// trees take at most a tenth of the loop's time however often windows change.
public final class SwayWatcher: AppWatcher {
    public let source: String
    public let fd: FileDescriptor
    private var buffer = SocketBuffer(largest: 1 << 20)
    /// A message announced longer than this is taken for nonsense, not skipped.
    static let longestSkipped = 64 << 20
    /// Not before this is the next tree asked (see above).
    private var treeNotBefore: Int64 = 0
    /// A GET_TREE asked and not yet answered.
    private var treeAsked = false
    /// Something changed since the last tree was made, maybe: one is asked at the end of
    /// the read, or once the one out is answered.
    private var treeWanted = false

    static let magic = Array("i3-ipc".utf8)
    static let headerSize = magic.count + 8
    enum Kind: UInt32 {
        case subscribe = 2, getTree = 4
        case workspaceEvent = 0x8000_0000, outputEvent = 0x8000_0001, windowEvent = 0x8000_0003
    }
    /// Window events that change no window's place: the tree is not asked for them.
    static let inPlace: Set<String> = ["title", "mark", "urgent"]

    /// Connects to `path` ($SWAYSOCK, or $I3SOCK for i3) and asks.
    public init(path: String, source: String) throws(AppWatcherError) {
        self.source = source
        do { fd = try UnixSocket.connect(path) } catch { throw AppWatcherError("cannot connect to \(path) (\(error))") }
        do {
            try UnixSocket.send(fd, Self.message(.subscribe, #"["window","workspace","output"]"#))
            try askForTree()
        } catch {
            close()
            throw AppWatcherError("cannot ask \(path) (\(error))")
        }
    }

    public func close() { Syscall.release(fd) }

    static func message(_ kind: Kind, _ payload: String) -> [UInt8] {
        var bytes = magic
        withUnsafeBytes(of: UInt32(payload.utf8.count)) { bytes += $0 }
        withUnsafeBytes(of: kind.rawValue) { bytes += $0 }
        return bytes + Array(payload.utf8)
    }

    private func askForTree() throws(Errno) {
        try UnixSocket.send(fd, Self.message(.getTree, ""))
        treeAsked = true
        treeWanted = false
    }

    public func read() throws(AppWatcherError) -> DesktopNews {
        try buffer.fill(from: fd)
        var found = DesktopNews()
        while buffer.bytes.count >= Self.headerSize {
            let header = buffer.bytes.prefix(Self.headerSize)
            guard header.prefix(Self.magic.count).elementsEqual(Self.magic) else { throw AppWatcherError("it sent what is no i3-ipc message") }
            let length = Int(word(header, at: Self.magic.count)), type = word(header, at: Self.magic.count + 4)
            guard length <= Self.longestSkipped else { throw AppWatcherError("it announced a message of \(length) bytes") }
            guard length <= buffer.largest else {
                buffer.skip(Self.headerSize + length)
                continue
            }
            guard buffer.bytes.count >= Self.headerSize + length else { break }
            let payload = Data(buffer.bytes.dropFirst(Self.headerSize).prefix(length))
            buffer.consume(Self.headerSize + length)
            take(Kind(rawValue: type), payload, into: &found)
        }
        if treeWanted, !treeAsked, monotonicMicroseconds() >= treeNotBefore {
            do { try askForTree() } catch { throw AppWatcherError("cannot ask for its tree (\(error))") }
        }
        return found
    }

    /// A tree wanted and not yet asked for: when it may be.
    public var deadline: Int64? { treeWanted && !treeAsked ? treeNotBefore : nil }

    private func word(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { raw in
            for i in 0..<4 { raw[i] = bytes[bytes.startIndex + offset + i] }
        }
        return value
    }

    /// One message: what it says anew, into `news`.
    private func take(_ kind: Kind?, _ payload: Data, into news: inout DesktopNews) {
        switch kind {
        case .getTree:
            treeAsked = false
            let start = monotonicMicroseconds()
            defer {
                let end = monotonicMicroseconds()
                treeNotBefore = end + 9 * (end - start)
            }
            guard let tree = try? JSONDecoder().decode(Node.self, from: payload) else { return }
            news.app = .some(tree.focusedLeaf.flatMap { $0.app(source) })
            if let layout = tree.layout(source) { news.windows = .some(layout) }
        case .windowEvent:
            guard let event = try? JSONDecoder().decode(WindowEvent.self, from: payload) else { return }
            if event.change == "focus", let container = event.container { news.app = .some(container.app(source)) }
            if !Self.inPlace.contains(event.change) { treeWanted = true }
        case .workspaceEvent, .outputEvent:
            treeWanted = true
        case .subscribe, nil:
            return
        }
    }

    /// What of a node (the tree's, an event's container) tells the application.
    struct Node: Decodable {
        var type: String?
        var focused: Bool?
        var app_id: String?
        var window_properties: WindowProperties?
        var nodes: [Node]?
        var floating_nodes: [Node]?
        /// sway's, for a window: whether it is shown (on a workspace in front, not hidden
        /// behind a tab or a fullscreen window).
        var visible: Bool?
        var rect: Rect?
        var fullscreen_mode: Int?

        /// The focused node, found breadth first.
        var focusedLeaf: Node? {
            var level = [self]
            while !level.isEmpty {
                if let focused = level.first(where: { $0.focused == true }) { return focused }
                level = level.flatMap { ($0.nodes ?? []) + ($0.floating_nodes ?? []) }
            }
            return nil
        }

        /// The application, for a window (nil for a workspace or output, or a name too long).
        func app(_ source: String) -> AppInFront? {
            let app = names(source)
            return app.names.isEmpty ? nil : app
        }

        /// Its names, those it has and that are not too long.
        private func names(_ source: String) -> AppInFront {
            func name(_ text: String?) -> String? {
                guard let text, !text.isEmpty, text.utf8.count <= AppInFront.longestName else { return nil }
                return text
            }
            return AppInFront(appID: name(app_id), windowClass: name(window_properties?.class),
                              instance: name(window_properties?.instance), source: source)
        }

        /// The windows shown, topmost first (a fullscreen one, then floating ones over
        /// tiled ones, a later floating one over an earlier), on the whole layout (the
        /// root's rectangle); nil when the tree says no `visible` (i3) or no layout.
        func layout(_ source: String) -> WindowLayout? {
            guard let screen = rect?.frame else { return nil }
            var shown: [(window: WindowLayout.Window, fullscreen: Bool)] = []  // bottom first
            var saysVisible = false
            func visit(_ node: Node) {
                if node.type == "con" || node.type == "floating_con", let visible = node.visible {
                    saysVisible = true
                    if visible, (node.nodes ?? []).isEmpty, let frame = node.rect?.frame {
                        shown.append((WindowLayout.Window(frame: frame, app: node.names(source)), (node.fullscreen_mode ?? 0) != 0))
                    }
                }
                for child in node.nodes ?? [] { visit(child) }
                for child in node.floating_nodes ?? [] { visit(child) }
            }
            visit(self)
            guard saysVisible else { return nil }
            let topFirst = shown.reversed()
            return WindowLayout(screen: screen, windows: topFirst.filter(\.fullscreen).map(\.window) + topFirst.filter { !$0.fullscreen }.map(\.window),
                                source: source)
        }
    }

    struct Rect: Decodable {
        var x, y, width, height: Int

        var frame: WindowLayout.Frame {
            WindowLayout.Frame(x: Int32(clamping: x), y: Int32(clamping: y), width: Int32(clamping: width), height: Int32(clamping: height))
        }
    }

    struct WindowProperties: Decodable {
        var `class`: String?
        var instance: String?
    }

    struct WindowEvent: Decodable {
        var change: String
        var container: Node?
    }

    struct WorkspaceEvent: Decodable {
        var change: String
    }
}
