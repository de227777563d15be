import CXcb
#if canImport(Glibc)
import Glibc
#endif
import Gestures

/// Where an X display's windows are, asked without waiting for the answers: the root's
/// children (QueryTree lists them bottom of the stack first), each one's map state,
/// geometry and `WM_CLASS`; a window shown without a `WM_CLASS` (a window manager's
/// frame) has its children asked for theirs. One question at a time: a change while it
/// is out asks again once it is answered.
final class X11WindowQuery {
    private let root: xcb_window_t
    private let screen: WindowLayout.Frame
    private var phase = Phase.idle
    private var askAgain = false
    /// A frame's children asked for a `WM_CLASS`, the topmost first.
    static let childrenOfAFrame = 8

    private enum Phase {
        case idle
        case tree(UInt32)
        /// Each top-level window's three questions asked.
        case windows([TopLevel])
        /// The frames' children asked.
        case frames([TopLevel])
    }

    /// A child of the root, as its answers come.
    private final class TopLevel {
        let window: xcb_window_t
        var attributes: UInt32?, geometry: UInt32?, windowClass: UInt32?
        var viewable = false
        var frame: WindowLayout.Frame?
        var app: AppInFront?
        /// A frame's children (`tree`), then their `WM_CLASS` questions, topmost first.
        var tree: UInt32?
        var inner: [UInt32?] = []

        init(_ window: xcb_window_t) { self.window = window }

        var answered: Bool { attributes == nil && geometry == nil && windowClass == nil }
        var framesAnswered: Bool { tree == nil && inner.allSatisfy { $0 == nil } }
    }

    init(root: xcb_window_t, width: UInt16, height: UInt16) {
        self.root = root
        screen = WindowLayout.Frame(x: 0, y: 0, width: Int32(width), height: Int32(height))
    }

    /// Something moved, came or went: ask (again once the question out is answered).
    func ask(_ c: OpaquePointer) {
        guard case .idle = phase else {
            askAgain = true
            return
        }
        phase = .tree(gestured_xcb_query_tree(c, root))
    }

    /// The answers that came: where the windows are once every one is in, nil before.
    func poll(_ c: OpaquePointer) -> WindowLayout?? {
        while true {
            switch phase {
            case .idle:
                return nil
            case .tree(let sequence):
                guard let reply = X11Reply.poll(c, sequence) else { return nil }
                guard let reply else { return finish(c, []) }
                let asked = Self.children(reply).suffix(WindowLayout.mostWindows).map { window in
                    let top = TopLevel(window)
                    top.attributes = gestured_xcb_get_window_attributes(c, window)
                    top.geometry = gestured_xcb_get_geometry(c, window)
                    top.windowClass = gestured_xcb_get_property(c, window, xcb_atom_t(XCB_ATOM_WM_CLASS.rawValue), X11Watcher.classLongs)
                    return top
                }
                phase = .windows(asked)
            case .windows(let tops):
                for top in tops where !top.answered {
                    guard answer(c, top) else { return nil }
                }
                let frames = tops.filter { $0.viewable && $0.frame != nil && $0.app == nil }
                for frame in frames { frame.tree = gestured_xcb_query_tree(c, frame.window) }
                phase = .frames(tops)
            case .frames(let tops):
                for top in tops where !top.framesAnswered {
                    guard answerFrame(c, top) else { return nil }
                }
                return finish(c, tops)
            }
        }
    }

    /// A QueryTree answer's children, bottom of the stack first; the answer is freed.
    private static func children(_ reply: UnsafeMutableRawPointer) -> [xcb_window_t] {
        defer { free(reply) }
        var count: Int32 = 0
        let children = gestured_xcb_tree_children(reply.assumingMemoryBound(to: xcb_query_tree_reply_t.self), &count)
        return children.map { Array(UnsafeBufferPointer(start: $0, count: Int(max(0, count)))) } ?? []
    }

    /// Takes a window's answers as far as they came; false when one has not.
    private func answer(_ c: OpaquePointer, _ top: TopLevel) -> Bool {
        if let sequence = top.attributes {
            guard let reply = X11Reply.poll(c, sequence) else { return false }
            top.attributes = nil
            top.viewable = reply.map { $0.assumingMemoryBound(to: xcb_get_window_attributes_reply_t.self).pointee.map_state == UInt8(XCB_MAP_STATE_VIEWABLE.rawValue) } ?? false
            free(reply)
        }
        if let sequence = top.geometry {
            guard let reply = X11Reply.poll(c, sequence) else { return false }
            top.geometry = nil
            if let g = reply?.assumingMemoryBound(to: xcb_get_geometry_reply_t.self).pointee {
                let border = 2 * Int32(g.border_width)
                top.frame = WindowLayout.Frame(x: Int32(g.x), y: Int32(g.y), width: Int32(g.width) + border, height: Int32(g.height) + border)
            }
            free(reply)
        }
        if let sequence = top.windowClass {
            guard let reply = X11Reply.poll(c, sequence) else { return false }
            top.windowClass = nil
            top.app = reply.flatMap(X11Watcher.app)
            free(reply)
        }
        return true
    }

    /// Takes a frame's children and then their `WM_CLASS` as far as they came; false when one has not.
    private func answerFrame(_ c: OpaquePointer, _ top: TopLevel) -> Bool {
        if let sequence = top.tree {
            guard let reply = X11Reply.poll(c, sequence) else { return false }
            top.tree = nil
            guard let reply else { return true }
            top.inner = Self.children(reply).suffix(Self.childrenOfAFrame).reversed().map {
                gestured_xcb_get_property(c, $0, xcb_atom_t(XCB_ATOM_WM_CLASS.rawValue), X11Watcher.classLongs)
            }
        }
        for i in top.inner.indices {
            guard let sequence = top.inner[i] else { continue }
            guard let reply = X11Reply.poll(c, sequence) else { return false }
            top.inner[i] = nil
            if top.app == nil { top.app = reply.flatMap(X11Watcher.app) }
            free(reply)
        }
        return true
    }

    /// The windows shown, topmost first; a window without a name is still a window,
    /// of no application.
    private func finish(_ c: OpaquePointer, _ tops: [TopLevel]) -> WindowLayout?? {
        phase = .idle
        if askAgain {
            askAgain = false
            ask(c)
        }
        let shown = tops.reversed().compactMap { top in
            top.viewable ? top.frame.map { WindowLayout.Window(frame: $0, app: top.app ?? AppInFront(source: "x11")) } : nil
        }
        return .some(WindowLayout(screen: screen, windows: shown, source: "x11"))
    }
}

/// Polling for an answer of libxcb's.
enum X11Reply {
    /// The answer to `sequence`: `.some(nil)` for an error, nil when it has not come.
    static func poll(_ c: OpaquePointer, _ sequence: UInt32) -> UnsafeMutableRawPointer?? {
        var reply: UnsafeMutableRawPointer?
        guard gestured_xcb_poll_for_reply(c, sequence, &reply) == 1 else { return nil }
        return .some(reply)
    }
}
