import FoundationEssentials
import Gestures
import SystemIO
import SystemPackage

/// sway's (and i3's) IPC socket: subscribed to window and workspace events, with the
/// tree asked for at the start and whenever another workspace comes to the front (an
/// empty one has no application in front). A message is `i3-ipc`, its payload's length
/// and its type (both 32-bit, the machine's order), then JSON; one over 4 MB is skipped.
public final class SwayWatcher: AppWatcher {
    public let source: String
    public let fd: FileDescriptor
    private var buffer = SocketBuffer(largest: 4 << 20)
    /// A GET_TREE asked and not yet answered: another is not asked meanwhile.
    private var treeAsked = false

    static let magic = Array("i3-ipc".utf8)
    static let headerSize = magic.count + 8
    enum Kind: UInt32 {
        case subscribe = 2, getTree = 4
        case workspaceEvent = 0x8000_0000, windowEvent = 0x8000_0003
    }

    /// Connects to `path` ($SWAYSOCK, or $I3SOCK for i3) and asks.
    public init(path: String, source: String) throws(AppWatcherError) {
        self.source = source
        do { fd = try UnixSocket.connect(path) } catch { throw AppWatcherError("cannot connect to \(path) (\(error))") }
        do {
            try UnixSocket.send(fd, Self.message(.subscribe, #"["window","workspace"]"#))
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
        guard !treeAsked else { return }
        try UnixSocket.send(fd, Self.message(.getTree, ""))
        treeAsked = true
    }

    public func read() throws(AppWatcherError) -> AppInFront?? {
        try buffer.fill(from: fd)
        var found: AppInFront??
        while buffer.bytes.count >= Self.headerSize {
            let header = buffer.bytes.prefix(Self.headerSize)
            guard header.prefix(Self.magic.count).elementsEqual(Self.magic) else { throw AppWatcherError("it sent what is no i3-ipc message") }
            let length = Int(word(header, at: Self.magic.count)), type = word(header, at: Self.magic.count + 4)
            guard length <= buffer.largest else {
                buffer.skip(Self.headerSize + length)
                continue
            }
            guard buffer.bytes.count >= Self.headerSize + length else { break }
            let payload = Data(buffer.bytes.dropFirst(Self.headerSize).prefix(length))
            buffer.consume(Self.headerSize + length)
            if let app = try take(Kind(rawValue: type), payload) { found = .some(app) }
        }
        return found
    }

    private func word(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { raw in
            for i in 0..<4 { raw[i] = bytes[bytes.startIndex + offset + i] }
        }
        return value
    }

    /// One message: the application in front it says (`.some(nil)`: none), or nil.
    private func take(_ kind: Kind?, _ payload: Data) throws(AppWatcherError) -> AppInFront?? {
        switch kind {
        case .getTree:
            treeAsked = false
            guard let tree = try? JSONDecoder().decode(Node.self, from: payload) else { return nil }
            return .some(tree.focusedLeaf.flatMap { $0.app(source) })
        case .windowEvent:
            guard let event = try? JSONDecoder().decode(WindowEvent.self, from: payload), event.change == "focus",
                  let container = event.container else { return nil }
            return .some(container.app(source))
        case .workspaceEvent:
            guard let event = try? JSONDecoder().decode(WorkspaceEvent.self, from: payload), event.change == "focus" else { return nil }
            do { try askForTree() } catch { throw AppWatcherError("cannot ask for its tree (\(error))") }
            return nil
        case .subscribe, nil:
            return nil
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
            func name(_ text: String?) -> String? {
                guard let text, !text.isEmpty, text.utf8.count <= AppInFront.longestName else { return nil }
                return text
            }
            let app = AppInFront(appID: name(app_id), windowClass: name(window_properties?.class),
                                 instance: name(window_properties?.instance), source: source)
            return app.names.isEmpty ? nil : app
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
