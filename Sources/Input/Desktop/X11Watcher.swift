import CXcb
#if canImport(Glibc)
import Glibc
#endif
import Gestures
import SystemIO
import SystemPackage

/// An X display's active window (EWMH's `_NET_ACTIVE_WINDOW` on the root, as window
/// managers set it) and its `WM_CLASS` (instance and class), and where the windows are
/// (`X11WindowQuery`), through libxcb: the root's property changes and its children's
/// comings, goings and moves are followed, and each question is asked without waiting
/// for its answer. The connection is made on a thread of its own (see CXcb): until it is
/// there, `fd` is the attempt's, and nothing is known.
public final class X11Watcher: AppWatcher {
    public let source = "x11"
    public private(set) var fd: FileDescriptor
    private var connection: OpaquePointer?
    private var root: xcb_window_t = 0
    private var activeWindowAtom: xcb_atom_t = 0
    /// The questions asked and not yet answered, by sequence number.
    private var atomAsked: UInt32?
    private var activeAsked: UInt32?
    private var classAsked: (sequence: UInt32, window: xcb_window_t)?
    /// The window `_NET_ACTIVE_WINDOW` last named, watched for its end: a window manager
    /// may leave the property naming a window gone (openbox does, when the last one closes).
    private var activeWindow: xcb_window_t = 0
    private var windowQuery: X11WindowQuery?
    /// The active window changed while its question was out: asked again once it is answered.
    private var askAgain = false
    /// Events left in libxcb's queue after a wake-up's budget.
    public private(set) var pending = false
    static let eventBudget = 256
    /// Rounds of answers and flushes a wake-up takes while they keep reading more.
    static let passes = 8
    /// `WM_CLASS`'s longest read: two names of `AppInFront.longestName` and their ends.
    static let classLongs: UInt32 = UInt32(2 * (AppInFront.longestName + 1) + 3) / 4

    /// Starts connecting to `display` (libxcb loaded on first use).
    public init(display: String) throws(AppWatcherError) {
        var why: UnsafePointer<CChar>?
        guard gestured_xcb_load(&why) == 0 else {
            throw AppWatcherError("cannot load libxcb (\(why.map { String(cString: $0) } ?? "unknown"))")
        }
        let attempt = gestured_xcb_connect_async(display)
        guard attempt >= 0 else { throw AppWatcherError("cannot start connecting (\(Errno(rawValue: errno)))") }
        fd = FileDescriptor(rawValue: attempt)
    }

    public func close() {
        if let connection { gestured_xcb_disconnect(connection) } else { Syscall.release(fd) }
        connection = nil
    }

    public func read() throws(AppWatcherError) -> DesktopNews {
        guard let connection else { try connected(); return DesktopNews() }
        guard gestured_xcb_has_error(connection) == 0 else { throw AppWatcherError("the X connection broke") }
        var news = DesktopNews()
        var budget = Self.eventBudget
        pending = false
        var event = gestured_xcb_poll_for_event(connection)
        for pass in 1... {
            while let current = event {
                handle(current, connection)
                free(current)
                budget -= 1
                event = budget > 0 ? gestured_xcb_poll_for_event(connection) : nil
            }
            let readBefore = gestured_xcb_total_read(connection)
            if let app = try answers(connection) { news.app = .some(app) }
            if let windows = windowQuery?.poll(connection) { news.windows = .some(windows) }
            guard gestured_xcb_flush(connection) > 0 else { throw AppWatcherError("the X connection broke") }
            // Polling for an answer, and a flush that writes, read what the server had sent
            // into libxcb's queue, where the socket no longer wakes the loop for it (a
            // PropertyNotify left there was a focus change never seen): taken now.
            guard gestured_xcb_total_read(connection) != readBefore else { break }
            guard budget > 0, pass < Self.passes else { pending = true; break }
            event = gestured_xcb_poll_for_queued_event(connection)
        }
        if budget == 0 { pending = true }
        return news
    }

    private func handle(_ event: UnsafeMutablePointer<xcb_generic_event_t>, _ connection: OpaquePointer) {
        switch event.pointee.response_type & 0x7f {
        case 28:
            // PropertyNotify of the root's _NET_ACTIVE_WINDOW: another window in front.
            let notify = UnsafeRawPointer(event).assumingMemoryBound(to: xcb_property_notify_event_t.self).pointee
            if notify.window == root, notify.atom == activeWindowAtom, activeWindowAtom != 0 { askActive(connection) }
        case 17, 18, 19, 21, 22, 26:
            // Destroy, Unmap, Map, Reparent, Configure, Circulate: of a root's child (the
            // event's window is the root), or the active window's own.
            let structure = UnsafeRawPointer(event).assumingMemoryBound(to: xcb_destroy_notify_event_t.self).pointee
            if structure.event == root {
                windowQuery?.ask(connection)
            } else if event.pointee.response_type & 0x7f == 17, structure.window == activeWindow, activeWindow != 0 {
                activeWindow = 0
                askActive(connection)
            }
        default:
            break
        }
    }

    /// The connecting thread is done: the connection, or why not.
    private func connected() throws(AppWatcherError) {
        guard let made = gestured_xcb_connected(fd.rawValue) else { throw AppWatcherError("cannot connect to the X display") }
        connection = made
        guard gestured_xcb_has_error(made) == 0 else { throw AppWatcherError("cannot connect to the X display") }
        fd = FileDescriptor(rawValue: gestured_xcb_fd(made))
        var width: UInt16 = 0, height: UInt16 = 0
        root = gestured_xcb_root(made, &width, &height)
        _ = gestured_xcb_select_root_events(made, root)
        atomAsked = gestured_xcb_intern_atom(made, "_NET_ACTIVE_WINDOW")
        let query = X11WindowQuery(root: root, width: width, height: height)
        query.ask(made)
        windowQuery = query
        guard gestured_xcb_flush(made) > 0 else { throw AppWatcherError("the X connection broke") }
        pending = true  // what that flush read is taken by the next read, at once
    }

    private func askActive(_ c: OpaquePointer) {
        guard activeAsked == nil else { askAgain = true; return }
        activeAsked = gestured_xcb_get_property(c, root, activeWindowAtom, 1)
    }

    /// The answers that came: the atom, the active window, its class.
    private func answers(_ c: OpaquePointer) throws(AppWatcherError) -> AppInFront?? {
        var found: AppInFront??
        if let sequence = atomAsked, let reply = X11Reply.poll(c, sequence) {
            atomAsked = nil
            guard let reply else { throw AppWatcherError("the X server has no _NET_ACTIVE_WINDOW atom") }
            activeWindowAtom = reply.assumingMemoryBound(to: xcb_intern_atom_reply_t.self).pointee.atom
            free(reply)
            askActive(c)
        }
        if let sequence = activeAsked, let reply = X11Reply.poll(c, sequence) {
            activeAsked = nil
            let window = reply.flatMap { Self.value($0, as: xcb_window_t.self) } ?? 0
            free(reply)
            if askAgain {
                askAgain = false
                askActive(c)
            } else if window == 0 {
                classAsked = nil
                if activeWindow != 0 { _ = gestured_xcb_select_destroy(c, activeWindow, 0) }
                activeWindow = 0
                found = .some(nil)  // no window manager, or no window active
            } else {
                if window != activeWindow {
                    // The window before no longer: its moves would wake the watcher for nothing.
                    if activeWindow != 0 { _ = gestured_xcb_select_destroy(c, activeWindow, 0) }
                    _ = gestured_xcb_select_destroy(c, window, 1)
                }
                activeWindow = window
                // A window gone answers with an error: no application in front.
                classAsked = (gestured_xcb_get_property(c, window, xcb_atom_t(XCB_ATOM_WM_CLASS.rawValue), Self.classLongs), window)
            }
        }
        if let asked = classAsked, let reply = X11Reply.poll(c, asked.sequence) {
            classAsked = nil
            defer { free(reply) }
            found = .some(reply.flatMap(Self.app))
        }
        return found
    }

    private static func value<T>(_ reply: UnsafeMutableRawPointer, as: T.Type) -> T? {
        var length: Int32 = 0
        let property = reply.assumingMemoryBound(to: xcb_get_property_reply_t.self)
        guard let bytes = gestured_xcb_property_value(property, &length), Int(length) >= MemoryLayout<T>.size else { return nil }
        return bytes.loadUnaligned(as: T.self)
    }

    /// `WM_CLASS`: the instance and the class, each ended by a NUL.
    static func app(_ reply: UnsafeMutableRawPointer) -> AppInFront? {
        var length: Int32 = 0
        let property = reply.assumingMemoryBound(to: xcb_get_property_reply_t.self)
        guard let bytes = gestured_xcb_property_value(property, &length), length > 0 else { return nil }
        let all = UnsafeRawBufferPointer(start: bytes, count: Int(length))
        let parts = all.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).prefix(2)
            .map { $0.count <= AppInFront.longestName ? String(validating: $0, as: UTF8.self) : nil }
        let instance = parts.first.flatMap { $0 }.flatMap { $0.isEmpty ? nil : $0 }
        let windowClass = parts.dropFirst().first.flatMap { $0 }.flatMap { $0.isEmpty ? nil : $0 }
        guard instance != nil || windowClass != nil else { return nil }
        return AppInFront(windowClass: windowClass, instance: instance, source: "x11")
    }
}
