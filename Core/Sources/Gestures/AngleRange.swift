import RealModule
import TouchCore

/// Directions as degrees counter-clockwise from right, as on paper: 0° right, 90° up,
/// 180° left, 270° down; a range goes counter-clockwise from `from` to `to` (`[330, 30]`
/// spans right), holding `from` but not `to`, so that ranges that meet share no angle.
/// The eight named directions are each a 45° range about their own angle (`init(_:)`).
public struct AngleRange: Hashable, Codable, Sendable, CustomStringConvertible {
    /// Both in 0 ..< 360.
    public let from: Double
    public let to: Double

    /// nil for a range of no width or a whole turn (which would be no direction at all).
    public init?(from: Double, to: Double) {
        guard from.isFinite, to.isFinite else { return nil }
        let a = Self.normalized(from), b = Self.normalized(to)
        guard a != b else { return nil }
        self.from = a
        self.to = b
    }

    /// A named direction's range: right is 337.5° to 22.5°, up-right 22.5° to 67.5°, …
    public init(_ direction: Direction) {
        let middle = Self.degrees(of: direction.unit)
        from = Self.normalized(middle - 22.5)
        to = Self.normalized(middle + 22.5)
    }

    public var width: Double { to > from ? to - from : to + 360 - from }

    public func contains(_ degrees: Double) -> Bool {
        Self.normalized(degrees - from) < width
    }

    /// Whether some angle is in both.
    public func overlaps(_ other: AngleRange) -> Bool {
        contains(other.from) || other.contains(from)
    }

    /// The direction halfway through the range, as a displacement of length 1 (y downwards).
    public var middle: Point {
        let radians = (from + width / 2) * Double.pi / 180
        return Point(x: Double.cos(radians), y: -Double.sin(radians))
    }

    /// A displacement's angle (y downwards, as touches are).
    public static func degrees(of v: Point) -> Double {
        normalized(atan2Degrees(y: -v.y, x: v.x))
    }

    static func normalized(_ degrees: Double) -> Double {
        let turned = degrees.truncatingRemainder(dividingBy: 360)
        let positive = turned < 0 ? turned + 360 : turned
        return positive >= 360 ? 0 : positive
    }

    public var description: String { "\(Self.said(from))° to \(Self.said(to))°" }

    /// Why a movement (y downwards) is not this way, as a recognizer says it; nil when it is.
    func refusal(of movement: Point) -> String? {
        let degrees = Self.degrees(of: movement)
        return contains(degrees) ? nil : "went at \(Self.said(degrees.rounded()))°, needs \(self)"
    }

    static func said(_ degrees: Double) -> String {
        degrees == degrees.rounded() ? String(Int(degrees)) : String(degrees)
    }
}
