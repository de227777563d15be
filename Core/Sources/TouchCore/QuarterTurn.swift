/// How far the display or a panel is turned, clockwise: 0, 90, 180 or 270 degrees. Made
/// only from what can be one, where it comes in: the configuration, the bus, the sensor.
public enum QuarterTurn: Int, CaseIterable, Codable, Sendable, CustomStringConvertible {
    case upright = 0, quarter = 90, half = 180, threeQuarters = 270

    /// Nil for any other number of degrees.
    public init?(degrees: Int) { self.init(rawValue: degrees) }

    public init?(degrees: UInt32) {
        guard let degrees = Int(exactly: degrees) else { return nil }
        self.init(rawValue: degrees)
    }

    /// iio-sensor-proxy's AccelerometerOrientation, as the desktop turns for it: left-up
    /// (the left edge up) is the display turned a quarter clockwise. Nil for "undefined"
    /// (lying flat, or not known yet) and for names it does not define.
    public init?(sensorOrientation name: String) {
        switch name {
        case "normal": self = .upright
        case "left-up": self = .quarter
        case "bottom-up": self = .half
        case "right-up": self = .threeQuarters
        default: return nil
        }
    }

    /// The name iio-sensor-proxy gives this turn.
    public var sensorOrientation: String {
        switch self {
        case .upright: "normal"
        case .quarter: "left-up"
        case .half: "bottom-up"
        case .threeQuarters: "right-up"
        }
    }

    public var degrees: Int { rawValue }
    /// A quarter or three quarters: the screen's x and y are the panel's y and x.
    public var swapsAxes: Bool { self == .quarter || self == .threeQuarters }
    public var description: String { "\(rawValue)°" }
}
