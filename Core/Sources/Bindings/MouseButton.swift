/// `click`: a button of gestured's virtual pointer.
public enum MouseButton: String, CaseIterable, Codable, Sendable {
    case left, right, middle

    /// BTN_LEFT, BTN_RIGHT, BTN_MIDDLE (linux/input-event-codes.h).
    public var code: UInt16 {
        switch self {
        case .left: 0x110
        case .right: 0x111
        case .middle: 0x112
        }
    }
}
