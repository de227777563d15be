/// A position or displacement. Touch locations are normalized: 0…1 across the panel,
/// x to the right and y downwards, whatever the device's units.
public struct Point: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    public var length: Double { (x * x + y * y).squareRoot() }
    public func distance(to other: Point) -> Double { (self - other).length }

    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: Point, k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }
}

/// A physical size in millimetres.
public struct SizeMM: Equatable, Sendable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// How device units map to the panel: normalized positions, and millimetres.
public struct DeviceGeometry: Equatable, Sendable {
    public var xAxis: AbsoluteAxis
    public var yAxis: AbsoluteAxis
    /// The panel's size: from the axis resolution, or given by the configuration
    /// (`size_mm`) for panels that report none.
    public var knownSize: SizeMM?

    /// Used for millimetre thresholds when the panel's size is unknown: a 12-inch
    /// (305 mm) diagonal in the aspect ratio of the axes, a typical laptop or kiosk panel.
    public static let assumedDiagonalMM = 305.0

    /// Takes the multitouch axes when there are any (they are what touches report),
    /// otherwise ABS_X/ABS_Y. Nil when the device has neither pair.
    public init?(_ description: DeviceDescription, sizeOverride: SizeMM? = nil) {
        let mt = (description.axis(AbsCode.mtPositionX), description.axis(AbsCode.mtPositionY))
        let single = (description.axis(AbsCode.x), description.axis(AbsCode.y))
        guard let x = mt.0 ?? single.0, let y = mt.1 ?? single.1 else { return nil }
        self.init(xAxis: x, yAxis: y, sizeOverride: sizeOverride)
    }

    public init(xAxis: AbsoluteAxis, yAxis: AbsoluteAxis, sizeOverride: SizeMM? = nil) {
        self.xAxis = xAxis
        self.yAxis = yAxis
        if let sizeOverride {
            knownSize = sizeOverride
        } else if xAxis.resolution > 0, yAxis.resolution > 0 {
            knownSize = SizeMM(width: Double(Self.span(xAxis)) / Double(xAxis.resolution),
                               height: Double(Self.span(yAxis)) / Double(yAxis.resolution))
        } else {
            knownSize = nil
        }
    }

    /// The size thresholds are measured against: known, or assumed.
    public var size: SizeMM {
        if let knownSize { return knownSize }
        let w = Double(Self.span(xAxis)), h = Double(Self.span(yAxis))
        let diagonal = (w * w + h * h).squareRoot()
        return SizeMM(width: Self.assumedDiagonalMM * w / diagonal, height: Self.assumedDiagonalMM * h / diagonal)
    }

    /// Device units to 0…1, clamped: some panels report a little beyond their range.
    public func normalize(x: Int32, y: Int32) -> Point {
        Point(x: Self.normalize(x, xAxis), y: Self.normalize(y, yAxis))
    }

    /// A normalized displacement or position in millimetres (known or assumed size).
    public func millimetres(_ p: Point) -> Point {
        let s = size
        return Point(x: p.x * s.width, y: p.y * s.height)
    }

    private static func span(_ axis: AbsoluteAxis) -> Int64 {
        max(1, Int64(axis.maximum) - Int64(axis.minimum))
    }

    private static func normalize(_ value: Int32, _ axis: AbsoluteAxis) -> Double {
        let v = Double(Int64(value) - Int64(axis.minimum)) / Double(span(axis))
        return min(1, max(0, v))
    }
}
