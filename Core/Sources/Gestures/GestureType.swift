import RealModule
import TouchCore

/// The built-in gesture types, named as in the configuration.
public enum GestureType: String, CaseIterable, Codable, Sendable {
    case tap
    case longPress = "long-press"
    case swipe, pan, pinch, rotate
    case edgeSwipe = "edge-swipe"
    case checkmark, chevron
    /// A shape taught with `gestured learn`: its templates are in the configuration.
    case stroke

    /// Continuous gestures go began → changed… → ended; discrete ones are recognized once.
    public var isContinuous: Bool { self == .pan || self == .pinch || self == .rotate }
}
