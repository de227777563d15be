import TouchCore

/// `hold`, `hold_button` and `pointer` on a continuous gesture (pan, pinch, rotate): keys
/// and a button of gestured's keyboard and pointer held from the gesture's begin to its
/// end, and the pointer following the fingers meanwhile. A window dragged with three
/// fingers holds super and the left button; an Alt+Tab switcher holds alt while the
/// gesture's steps press Tab. Released however the gesture ends: lifted, cancelled (a
/// lock, a pause, another gesture winning), its panel gone, the daemon stopping.
public struct Hold: Codable, Equatable, Sendable {
    /// The chord held (`hold = "super"`, `"ctrl+alt"`), as written and as key codes.
    public var written: String?
    public var keys: [UInt16]
    public var button: MouseButton?
    /// Whether gestured's pointer goes where the fingers are at the begin and follows them.
    public var pointer: Bool

    public init(written: String? = nil, keys: [UInt16] = [], button: MouseButton? = nil, pointer: Bool) {
        self.written = written
        self.keys = keys
        self.button = button
        self.pointer = pointer
    }

    /// What `replay --actions` and the log say it holds.
    public var text: String {
        [written, button.map { "\($0.rawValue) button" }].compactMap { $0 }.joined(separator: " and ")
    }
}

/// A held gesture's moment: its begin (press, the pointer first where the fingers are),
/// the fingers moving (the pointer follows), its end however it comes (release).
public struct HoldAction: Equatable, Sendable {
    public enum Moment: String, Equatable, Sendable {
        case press, follow, release
    }

    public var binding: String
    public var moment: Moment
    public var hold: Hold
    /// The fingers' centroid, normalized over the touchscreen.
    public var location: Point

    public init(binding: String, _ moment: Moment, _ hold: Hold, at location: Point) {
        self.binding = binding
        self.moment = moment
        self.hold = hold
        self.location = location
    }
}
