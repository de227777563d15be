import Gestures

/// A gesture handed to the virtual touchpad: its fingers landing (its begin), moving, lifting.
public struct TouchpadAction: Equatable, Sendable {
    public enum Moment: String, Equatable, Sendable {
        case begin, move, end
    }

    public var binding: String
    public var moment: Moment
    public var touches: [TouchTrack]

    public init(binding: String, _ moment: Moment, touches: [TouchTrack]) {
        self.binding = binding
        self.moment = moment
        self.touches = touches
    }
}
