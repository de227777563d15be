import TouchCore

/// How a panel's rotation is known: fixed by how it is mounted (`rotation = 90`),
/// followed from the accelerometer through iio-sensor-proxy (`"auto"`), or set from
/// outside, by a compositor's hook on the bus (`"external"`).
public enum RotationSetting: Equatable, Codable, Sendable {
    case fixed(QuarterTurn)
    case automatic
    case external

    /// The rotation in force, given the display's as last sensed or set.
    public func rotation(display: QuarterTurn) -> QuarterTurn {
        switch self {
        case .fixed(let degrees): degrees
        case .automatic, .external: display
        }
    }

    /// Whether it follows the display's rotation.
    public var followsDisplay: Bool {
        if case .fixed = self { false } else { true }
    }
}
