import FoundationEssentials
import Gestures
import SystemIO
import SystemPackage

/// Hyprland's sockets. Its event socket (`.socket2.sock`): a line per event,
/// `EVENT>>DATA`; the application in front from `activewindow>>CLASS,TITLE` (the class is
/// the Wayland app id, or the X11 class; an empty one is no window in front). A line
/// over 4 KB is skipped. Hyprland says `activewindow` only when the focus moves, so the
/// window already in front at the start is asked for (`j/activewindow`); an event that
/// comes before its answer stands over it.
///
/// Where its windows are comes from its request socket (`.socket.sock`, beside it): one
/// connection per question, answered and closed. `j/monitors`, then `j/clients`, are
/// asked at the start and after any event that can move a window, one question out at a
/// time; an answer that is no JSON leaves only the focused window known until the next
/// event. A question that cannot be put (the socket's backlog full: it is never waited
/// for), an answer over 4 MB or one that has not ended within 2 s leave only the focused
/// window known, and the questions are put again after a second, doubling to 30 s.
/// Where there is no request socket (a stand-in, a Hyprland that refuses it), only the
/// focused window is known.
public final class HyprlandWatcher: AppWatcher {
    public let source = "hyprland"
    public let fd: FileDescriptor
    private var events = SocketBuffer(largest: 4096)
    private let requestPath: String
    /// The question out, when it went out, and what has come of its answer.
    private var asked: (fd: FileDescriptor, question: Question, at: Int64)?
    private var answer = SocketBuffer(largest: 4 << 20)
    /// The monitors' answer, kept until the clients' comes.
    private var monitors: [Monitor] = []
    /// Something may have moved since the last question went out.
    private var layoutWanted = true
    /// A layout was said, and stands until another is or it is taken back.
    private var layoutSaid = false
    /// Hyprland has said which window is in front (an event, or the answer to `j/activewindow`).
    private var appKnown = false
    /// A question that could not be put, or was not answered: when to put it again.
    private var retryAt: Int64?
    private var backoff = Backoff(first: 1_000_000, longest: 30_000_000)
    /// How long an answer may take to end.
    static let answerTimeout: Int64 = 2_000_000

    enum Question: String {
        case activeWindow = "j/activewindow", monitors = "j/monitors", clients = "j/clients"
    }

    /// Events that move no window: no question is asked for them.
    static let inPlace: Set<String> = ["windowtitle", "windowtitlev2", "activelayout", "submap", "screencast", "urgent", "bell"]

    /// `$XDG_RUNTIME_DIR/hypr/SIGNATURE/.socket2.sock`, or under /tmp/hypr for Hyprland
    /// before 0.40; nil without a signature.
    public static func socketPath(signature: String?, runtimeDirectory: String?) -> [String] {
        guard let signature, !signature.isEmpty, !signature.contains("/") else { return [] }
        return (runtimeDirectory.map { ["\($0)/hypr/\(signature)/.socket2.sock"] } ?? []) + ["/tmp/hypr/\(signature)/.socket2.sock"]
    }

    /// Connects to the event socket at `path` and asks where the windows are.
    public init(path: String) throws(AppWatcherError) {
        do { fd = try UnixSocket.connect(path) } catch { throw AppWatcherError("cannot connect to \(path) (\(error))") }
        requestPath = String(path.dropLast(".socket2.sock".count)) + ".socket.sock"
        var unused = DesktopNews()
        ask(.activeWindow, news: &unused)
    }

    public var requestFD: FileDescriptor? { asked?.fd }

    /// When the answer out is late, or a question is to be put again.
    public var deadline: Int64? { asked.map { $0.at + Self.answerTimeout } ?? retryAt }

    public func close() {
        Syscall.release(fd)
        if let asked { Syscall.release(asked.fd) }
        asked = nil
    }

    public func read() throws(AppWatcherError) -> DesktopNews {
        var news = DesktopNews()
        try events.fill(from: fd)
        events.takeLines { line in
            if let app = Self.app(fromLine: line) {
                news.app = .some(app)
                appKnown = true
            }
            if !Self.inPlace.contains(Self.event(line)) { layoutWanted = true }
        }
        readAnswer(into: &news)
        let now = monotonicMicroseconds()
        if let asked, now >= asked.at + Self.answerTimeout { giveUp(&news) }
        if asked == nil, layoutWanted || retryAt != nil, now >= retryAt ?? now { ask(appKnown ? .monitors : .activeWindow, news: &news) }
        return news
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

    /// The event's name: what comes before `>>` (names are short; a line is not searched further).
    static func event(_ line: ArraySlice<UInt8>) -> String {
        let head = String(decoding: line.prefix(64), as: UTF8.self)
        return String(head.firstRange(of: ">>").map { head[..<$0.lowerBound] } ?? head[...])
    }

    private func ask(_ question: Question, news: inout DesktopNews) {
        layoutWanted = false
        retryAt = nil
        let socket: FileDescriptor
        do { socket = try UnixSocket.connect(requestPath) } catch {
            // Nothing listens there: no request socket, and nothing to put again.
            if error != .noSuchFileOrDirectory, error != .connectionRefused { askAgainLater() }
            return takeBack(&news)
        }
        do { try UnixSocket.send(socket, Array(question.rawValue.utf8)) } catch {
            Syscall.release(socket)
            askAgainLater()
            return takeBack(&news)
        }
        asked = (socket, question, monotonicMicroseconds())
        answer = SocketBuffer(largest: answer.largest)
    }

    private func askAgainLater() { retryAt = backoff.next(after: monotonicMicroseconds()) }

    /// What has come of the answer; at its end, the next question or the layout.
    private func readAnswer(into news: inout DesktopNews) {
        guard let asked else { return }
        let ended: Bool
        do { ended = try answer.fillUntilClosed(from: asked.fd) } catch { return giveUp(&news) }
        guard answer.bytes.count <= answer.largest else { return giveUp(&news) }
        guard ended else { return }
        Syscall.release(asked.fd)
        self.asked = nil
        backoff.reset()
        let reply = Data(answer.bytes)
        switch asked.question {
        case .activeWindow:
            // `{}` when no window is in front; what is no object (a stand-in's refusal) says nothing.
            if !appKnown, let window = try? JSONDecoder().decode(Client.self, from: reply) {
                news.app = .some(window.app)
                appKnown = true
            }
            ask(.monitors, news: &news)
        case .monitors:
            guard let monitors = try? JSONDecoder().decode([Monitor].self, from: reply) else { return takeBack(&news) }
            self.monitors = monitors
            ask(.clients, news: &news)
        case .clients:
            guard let clients = try? JSONDecoder().decode([Client].self, from: reply) else { return takeBack(&news) }
            let layout = Self.layout(monitors: monitors, clients: clients)
            if layout != nil || layoutSaid { news.windows = .some(layout) }
            layoutSaid = layout != nil
        }
    }

    /// An answer that went wrong, or did not end in time: asked again later.
    private func giveUp(_ news: inout DesktopNews) {
        if let asked { Syscall.release(asked.fd) }
        asked = nil
        askAgainLater()
        takeBack(&news)
    }

    /// Where the windows are is not known (until the next event asks again): a layout
    /// said before no longer stands.
    private func takeBack(_ news: inout DesktopNews) {
        if layoutSaid { news.windows = .some(nil) }
        layoutSaid = false
    }

    /// The windows shown on the focused monitor (where Hyprland maps a touchscreen bound
    /// to no output), topmost first: its special workspace's over its workspace's, and in
    /// each a fullscreen window over floating ones over tiled ones, a floating window
    /// later in the list over an earlier (Hyprland lists them in the order it draws).
    static func layout(monitors: [Monitor], clients: [Client]) -> WindowLayout? {
        guard let monitor = monitors.first(where: { $0.focused == true && $0.disabled != true }) ?? monitors.first(where: { $0.disabled != true }) else { return nil }
        let special = monitor.specialWorkspace?.id, regular = monitor.activeWorkspace?.id
        var ranks = [[WindowLayout.Window]](repeating: [], count: 6)
        for client in clients.reversed() where client.mapped != false && client.hidden != true {
            guard let workspace = client.workspace?.id, let frame = client.frame, let app = client.app else { continue }
            let onSpecial = special != nil && special != 0 && workspace == special
            guard onSpecial || workspace == regular || client.pinned == true else { continue }
            let layer = client.fullscreen?.on == true ? 0 : client.floating == true ? 1 : 2
            ranks[(onSpecial ? 0 : 3) + layer].append(WindowLayout.Window(frame: frame, app: app))
        }
        return WindowLayout(screen: monitor.frame, windows: ranks.flatMap { $0 }, source: "hyprland")
    }

    struct Workspace: Decodable {
        var id: Int
    }

    struct Monitor: Decodable {
        var x, y, width, height: Int
        var scale: Double?
        var transform: Int?
        var focused: Bool?
        var disabled: Bool?
        var activeWorkspace: Workspace?
        var specialWorkspace: Workspace?

        /// In layout coordinates: its mode's pixels turned as it is and divided by its scale.
        var frame: WindowLayout.Frame {
            let turned = (transform ?? 0) % 2 == 1
            let scale = scale.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 1
            return WindowLayout.Frame(x: Int32(clamping: x), y: Int32(clamping: y),
                                      width: clamped(Double(turned ? height : width) / scale),
                                      height: clamped(Double(turned ? width : height) / scale))
        }
    }

    struct Client: Decodable {
        var mapped: Bool?
        var hidden: Bool?
        var at: [Int]?
        var size: [Int]?
        var workspace: Workspace?
        var floating: Bool?
        var pinned: Bool?
        var fullscreen: Fullscreen?
        var `class`: String?

        var frame: WindowLayout.Frame? {
            guard let at, let size, at.count == 2, size.count == 2 else { return nil }
            return WindowLayout.Frame(x: Int32(clamping: at[0]), y: Int32(clamping: at[1]),
                                      width: Int32(clamping: size[0]), height: Int32(clamping: size[1]))
        }

        var app: AppInFront? {
            guard let name = `class`, !name.isEmpty, name.utf8.count <= AppInFront.longestName else { return nil }
            return AppInFront(appID: name, source: "hyprland")
        }
    }

    /// `fullscreen`: a mode number since Hyprland 0.42, a boolean before.
    struct Fullscreen: Decodable {
        var on: Bool

        init(from decoder: Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let flag = try? value.decode(Bool.self) { on = flag } else { on = try value.decode(Int.self) != 0 }
        }
    }
}

/// A peer's measure in Int32, rounded; what is no number or out of range is clamped.
private func clamped(_ value: Double) -> Int32 {
    guard value.isFinite else { return 0 }
    return Int32(max(Double(Int32.min), min(Double(Int32.max), value.rounded())))
}
