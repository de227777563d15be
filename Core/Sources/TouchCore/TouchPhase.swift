/// Where a touch is in its life, as UIKit names it.
public enum TouchPhase: String, Sendable {
    case began, moved, stationary, ended, cancelled

    /// True while the finger is down.
    public var isDown: Bool { self == .began || self == .moved || self == .stationary }
}
