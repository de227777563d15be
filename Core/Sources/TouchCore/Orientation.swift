/// How a panel is mounted: axes flipped first, then turned clockwise by `rotation` to
/// give screen coordinates.
public struct Orientation: Equatable, Sendable {
    public var rotation = QuarterTurn.upright
    public var invertX = false
    public var invertY = false

    public init(rotation: QuarterTurn = .upright, invertX: Bool = false, invertY: Bool = false) {
        self.rotation = rotation
        self.invertX = invertX
        self.invertY = invertY
    }

    var swapsAxes: Bool { rotation.swapsAxes }

    func apply(_ p: Point) -> Point {
        let u = invertX ? 1 - p.x : p.x, v = invertY ? 1 - p.y : p.y
        switch rotation {
        case .upright: return Point(x: u, y: v)
        case .quarter: return Point(x: 1 - v, y: u)
        case .half: return Point(x: 1 - u, y: 1 - v)
        case .threeQuarters: return Point(x: v, y: 1 - u)
        }
    }
}
