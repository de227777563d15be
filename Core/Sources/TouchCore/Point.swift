/// A position or displacement. Touch locations are normalized: 0…1 across the panel,
/// x to the right and y downwards, whatever the device's units.
public struct Point: Equatable, Sendable {
    public var x: Double
    public var y: Double

    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    // Inlinable: the stroke recognizers measure thousands of these at a lift.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }
    @inlinable public func distance(to other: Point) -> Double { (self - other).length }

    @inlinable public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    @inlinable public static func * (a: Point, k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }
}
