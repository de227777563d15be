import CXcb
#if canImport(Glibc)
import Glibc
#endif
import Gestures
import Pipeline
import SystemIO
import SystemPackage
import TouchCore

/// The session agent's overlay in an X11 session (`overlay = true`): each finger's trail
/// and a bar of the lead gesture's progress toward firing, blue while it decides, green
/// once it will fire or fired, red when nothing matches; gone `lingerMicroseconds` after
/// the lift. One override-redirect window over the screen, shown only where its bounding
/// shape says and painted one colour, so that it needs no compositor; its input shape is
/// empty, so every click goes to the window under it. The connection is made on a thread
/// of its own (see CXcb): until it is there, `fd` is the attempt's, and the updates are
/// kept, to be drawn whole once the window is made (the first gesture's trail starts
/// where its fingers came down).
public final class X11Overlay {
    public private(set) var fd: FileDescriptor
    private var connection: OpaquePointer?
    private var window: xcb_window_t = 0
    private var size = (width: 0.0, height: 0.0)
    /// Each finger's path so far, normalized over the screen, by its place in the frame.
    private var trails: [[Point]] = []
    /// The last update's gesture, progress and verdict; nil before the first.
    private var lead: FeedbackLead?
    private var drawing = false
    private var hideAt: Int64?
    private var rectangles: [xcb_rectangle_t] = []

    static let lingerMicroseconds: Int64 = 700_000
    static let mostPointsATrail = 256
    static let dotPixels: Int16 = 8
    /// What one update asks of the X server, at most: dots past it are not drawn.
    static let mostRectangles = 4096

    /// Starts connecting to `display` (libxcb and libxcb-shape loaded on first use).
    public init(display: String) throws(OverlayError) {
        var why: UnsafePointer<CChar>?
        guard gestured_xcb_load(&why) == 0, gestured_xcb_load_shape(&why) == 0 else {
            throw OverlayError("cannot load libxcb and libxcb-shape (\(why.map { String(cString: $0) } ?? "unknown"))")
        }
        let attempt = gestured_xcb_connect_async(display)
        guard attempt >= 0 else { throw OverlayError("cannot start connecting (\(Errno(rawValue: errno)))") }
        fd = FileDescriptor(rawValue: attempt)
    }

    deinit {
        if let connection { gestured_xcb_disconnect(connection) } else { Syscall.release(fd) }
    }

    /// `fd` is readable: the connection made (`fd` is then the X socket's), or the
    /// server's events, read and dropped (the window asks for none). Throws when broken.
    public func readable() throws(OverlayError) {
        guard let connection else {
            guard let made = gestured_xcb_connected(fd.rawValue), gestured_xcb_has_error(made) == 0 else {
                throw OverlayError("cannot connect to the X display")
            }
            connection = made
            fd = FileDescriptor(rawValue: gestured_xcb_fd(made))
            var width: UInt16 = 0, height: UInt16 = 0
            _ = gestured_xcb_root(made, &width, &height)
            size = (Double(width), Double(height))
            window = gestured_xcb_overlay_create(made, 0)
            guard window != 0, gestured_xcb_flush(made) > 0 else { throw OverlayError("cannot make the overlay's window") }
            // What came while connecting: a trail under way, or one lingering after its lift.
            if drawing || hideAt != nil { render() }
            return
        }
        while let event = gestured_xcb_poll_for_event(connection) { free(event) }
        guard gestured_xcb_has_error(connection) == 0 else { throw OverlayError("the X connection broke") }
    }

    /// When the trail left by a lift goes.
    public var nextDeadline: Int64? { hideAt }

    public func process(now: Int64) {
        guard let due = hideAt, due <= now else { return }
        hideAt = nil
        trails = []
        drawing = false
        guard let connection, window != 0 else { return }
        gestured_xcb_overlay_hide(connection, window)
        _ = gestured_xcb_flush(connection)
    }

    /// Draws an update: the fingers' trails grow; a lift leaves them, in the verdict's
    /// colour, for a moment.
    public func draw(_ frame: FeedbackFrame, now: Int64) {
        if !drawing { trails = [] }
        if frame.fingers.isEmpty {
            hideAt = now + Self.lingerMicroseconds
            drawing = false
        } else {
            hideAt = nil
            drawing = true
            while trails.count < frame.fingers.count { trails.append([]) }
            for (index, finger) in frame.fingers.enumerated() {
                trails[index].append(finger)
                if trails[index].count > Self.mostPointsATrail { trails[index].removeFirst() }
            }
        }
        lead = frame.lead
        render()
    }

    /// Shows the trails and the bar as they are, once the window is there.
    private func render() {
        guard let connection, window != 0, let lead else { return }
        rectangles.removeAll(keepingCapacity: true)
        for trail in trails { appendDots(along: trail) }
        let bar = 300.0
        rectangles.append(xcb_rectangle_t(x: Int16(clamping: Int((size.width - bar) / 2)), y: 16,
                                          width: UInt16(clamping: Int((bar * lead.progress).rounded()) + 1), height: 10))
        rectangles.withUnsafeBufferPointer {
            gestured_xcb_overlay_show(connection, window, Self.colour(lead.verdict), $0.baseAddress, UInt32($0.count))
        }
        _ = gestured_xcb_flush(connection)
    }

    /// Squares every few pixels along the path (normalized over the screen), so that a
    /// fast finger's trail is unbroken.
    private func appendDots(along trail: [Point]) {
        let dot = Self.dotPixels
        var previous: Point?
        for normalized in trail {
            let point = Point(x: normalized.x * size.width, y: normalized.y * size.height)
            let from = previous ?? point
            let steps = max(1, min(64, Int((point - from).length / Double(dot / 2))))
            for step in 1...steps where rectangles.count < Self.mostRectangles {
                let p = from + (point - from) * (Double(step) / Double(steps))
                rectangles.append(xcb_rectangle_t(x: Int16(clamping: Int(p.x.rounded()) - Int(dot / 2)), y: Int16(clamping: Int(p.y.rounded()) - Int(dot / 2)),
                                                  width: UInt16(dot), height: UInt16(dot)))
            }
            previous = point
        }
    }

    /// Blue while deciding, green once it will fire or fired, red when nothing matches,
    /// grey when the touch lock is why.
    static func colour(_ verdict: FeedbackLead.Verdict) -> UInt32 {
        switch verdict {
        case .deciding: 0x3584e4
        case .willFire, .fired: 0x33d17a
        case .nothingMatches: 0xe01b24
        case .touchLocked: 0x9a9996
        }
    }
}

/// Why the overlay cannot be drawn (said once in the agent's log).
public struct OverlayError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
