import RealModule
import TouchCore

/// A named rectangle in normalized screen coordinates, standing in for a UIKit view: a
/// gesture attached to it only receives touches that began inside it.
public struct Region: Equatable, Codable, Sendable {
    public var name: String
    public var x: ClosedRange<Double>
    public var y: ClosedRange<Double>

    public init(name: String, x: ClosedRange<Double>, y: ClosedRange<Double>) {
        self.name = name
        self.x = x
        self.y = y
    }

    public static let screen = Region(name: "screen", x: 0...1, y: 0...1)

    public func contains(_ p: Point) -> Bool { x.contains(p.x) && y.contains(p.y) }
}
