import RealModule
import TouchCore

/// Eight directions in screen terms: up is towards the top of the panel.
public enum Direction: String, CaseIterable, Codable, Sendable {
    case right, downRight = "down-right", down, downLeft = "down-left"
    case left, upLeft = "up-left", up, upRight = "up-right"

    /// The direction nearest to a displacement (y downwards), in 45° sectors.
    public init(of v: Point) {
        let angle = atan2Degrees(y: v.y, x: v.x)  // 0 = right, 90 = down
        let sector = Int(saturating: ((angle + 360 + 22.5) / 45).rounded(.down)) % 8
        self = Direction.allCases[sector]
    }

    /// A displacement of length 1 this way (y downwards).
    public var unit: Point {
        let index = Double(Direction.allCases.firstIndex(of: self) ?? 0)
        let radians = index * 45 * Double.pi / 180
        return Point(x: Double.cos(radians), y: Double.sin(radians))
    }
}
