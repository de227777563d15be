import TouchCore

/// A recognizer's state, as in UIKit. Discrete gestures go possible → ended (recognized)
/// or failed; continuous ones possible → began → changed… → ended or cancelled.
public enum RecognizerState: String, Sendable {
    case possible, began, changed, ended, cancelled, failed

    public var isTerminal: Bool { self == .ended || self == .cancelled || self == .failed }
    /// Began or changed: a continuous gesture under way.
    public var isActive: Bool { self == .began || self == .changed }
}
