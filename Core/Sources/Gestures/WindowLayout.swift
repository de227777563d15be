/// The windows a desktop shows and where, as sway, Hyprland or an X display say it, in
/// their layout's units (pixels of the X root window, sway's and Hyprland's layout
/// coordinates): what "the window under the first touch" is found in. The panels' touches
/// cover `screen`: the whole layout, as X and wlroots map a touchscreen unless told
/// otherwise, or Hyprland's focused monitor. A peer's words: bounded in count, every number taken as it is, never
/// computed with in a way that can trap.
public struct WindowLayout: Equatable, Sendable {
    public struct Frame: Equatable, Sendable {
        public var x, y, width, height: Int32

        public init(x: Int32, y: Int32, width: Int32, height: Int32) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// Whether the point (in the layout's units) is inside; worked in Double, so no
        /// edge of a peer's making can overflow.
        func contains(_ px: Double, _ py: Double) -> Bool {
            let left = Double(x), top = Double(y)
            return px >= left && px < left + Double(width) && py >= top && py < top + Double(height)
        }
    }

    public struct Window: Equatable, Sendable {
        public var frame: Frame
        public var app: AppInFront

        public init(frame: Frame, app: AppInFront) {
            self.frame = frame
            self.app = app
        }
    }

    /// What the panels' touches cover.
    public var screen: Frame
    /// The windows shown, topmost first; at most `mostWindows`.
    public var windows: [Window]
    /// Who said so: "sway", "hyprland", "x11", "the timeline".
    public var source: String

    /// The most windows kept: those further down a desktop's stack are left out.
    public static let mostWindows = 256

    /// Nil for a screen without area (a desktop with no output yet).
    public init?(screen: Frame, windows: [Window], source: String) {
        guard screen.width > 0, screen.height > 0 else { return nil }
        self.screen = screen
        self.windows = Array(windows.lazy.filter { $0.frame.width > 0 && $0.frame.height > 0 }.prefix(Self.mostWindows))
        self.source = source
    }

    /// The application of the topmost window at the point `x`, `y` of the screen, each a
    /// fraction of its width and height (0 the left or top edge, 1 the other); nil when
    /// no window is there (the desktop's background, outside the screen).
    public func app(atFraction x: Double, _ y: Double) -> AppInFront? {
        guard x.isFinite, y.isFinite else { return nil }
        let px = Double(screen.x) + x * Double(screen.width), py = Double(screen.y) + y * Double(screen.height)
        return windows.first { $0.frame.contains(px, py) }?.app
    }

    /// How the log and `monitor` name it: how many windows, and the screen's size.
    public var description: String {
        "\(windows.count) window\(windows.count == 1 ? "" : "s") on \(screen.width)×\(screen.height)"
    }
}
