/// How device units map to the screen: normalized positions, and millimetres.
public struct DeviceGeometry: Equatable, Sendable {
    public var xAxis: AbsoluteAxis
    public var yAxis: AbsoluteAxis
    public var orientation: Orientation
    /// libinput's calibration of the panel (see `DeviceDescription.calibration`), applied
    /// to its normalized positions before the orientation, as libinput does.
    public var calibration = CalibrationMatrix.identity
    /// The screen's size as seen (after rotation): from the axis resolution, or given by
    /// the configuration (`size_mm`) for panels that report none.
    public var knownSize: SizeMM?

    /// Used for millimetre thresholds when the panel's size is unknown: a 12-inch
    /// (305 mm) diagonal in the aspect ratio of the axes, a typical laptop or kiosk panel.
    public static let assumedDiagonalMM = 305.0

    /// Takes the multitouch axes when there are any (they are what touches report),
    /// otherwise ABS_X/ABS_Y. Nil when the device has neither pair.
    public init?(_ description: DeviceDescription, sizeOverride: SizeMM? = nil, orientation: Orientation = Orientation()) {
        let mt = (description.axis(AbsCode.mtPositionX), description.axis(AbsCode.mtPositionY))
        let single = (description.axis(AbsCode.x), description.axis(AbsCode.y))
        guard let x = mt.0 ?? single.0, let y = mt.1 ?? single.1 else { return nil }
        self.init(xAxis: x, yAxis: y, sizeOverride: sizeOverride, orientation: orientation)
        calibration = description.calibration ?? .identity
    }

    public init(xAxis: AbsoluteAxis, yAxis: AbsoluteAxis, sizeOverride: SizeMM? = nil, orientation: Orientation = Orientation()) {
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.orientation = orientation
        if let sizeOverride {
            knownSize = sizeOverride
        } else if xAxis.resolution > 0, yAxis.resolution > 0 {
            knownSize = Self.asSeen(Double(Self.span(xAxis)) / Double(xAxis.resolution),
                                    Double(Self.span(yAxis)) / Double(yAxis.resolution), orientation)
        } else {
            knownSize = nil
        }
    }

    /// The same panel with the display turned to `rotation`; a known size turns with it.
    public func turned(to rotation: QuarterTurn) -> DeviceGeometry {
        var turned = self
        turned.orientation.rotation = rotation
        if let knownSize, turned.orientation.swapsAxes != orientation.swapsAxes {
            turned.knownSize = SizeMM(width: knownSize.height, height: knownSize.width)
        }
        return turned
    }

    /// The size thresholds are measured against: known, or assumed.
    public var size: SizeMM {
        if let knownSize { return knownSize }
        let w = Double(Self.span(xAxis)), h = Double(Self.span(yAxis))
        let diagonal = (w * w + h * h).squareRoot()
        return Self.asSeen(Self.assumedDiagonalMM * w / diagonal, Self.assumedDiagonalMM * h / diagonal, orientation)
    }

    /// Device units to 0…1 on the screen, clamped: some panels report a little beyond
    /// their range, and a calibration may put a touch beyond the screen's edge.
    public func normalize(x: Int32, y: Int32) -> Point {
        let raw = Point(x: Self.normalize(x, xAxis), y: Self.normalize(y, yAxis))
        var calibrated = calibration.apply(raw)
        // A matrix of huge numbers overflows: such a one is not taken.
        if !calibrated.x.isFinite || !calibrated.y.isFinite { calibrated = raw }
        return orientation.apply(Point(x: min(1, max(0, calibrated.x)), y: min(1, max(0, calibrated.y))))
    }

    private static func asSeen(_ width: Double, _ height: Double, _ orientation: Orientation) -> SizeMM {
        orientation.swapsAxes ? SizeMM(width: height, height: width) : SizeMM(width: width, height: height)
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
