/// How a panel is mounted: axes flipped first, then turned clockwise by `rotation`
/// degrees (0, 90, 180, 270) to give screen coordinates.
public struct Orientation: Equatable, Sendable {
    public var rotation = 0
    public var invertX = false
    public var invertY = false

    public init(rotation: Int = 0, invertX: Bool = false, invertY: Bool = false) {
        self.rotation = rotation
        self.invertX = invertX
        self.invertY = invertY
    }

    var swapsAxes: Bool { rotation == 90 || rotation == 270 }

    func apply(_ p: Point) -> Point {
        let u = invertX ? 1 - p.x : p.x, v = invertY ? 1 - p.y : p.y
        switch rotation {
        case 90: return Point(x: 1 - v, y: u)
        case 180: return Point(x: 1 - u, y: 1 - v)
        case 270: return Point(x: v, y: 1 - u)
        default: return Point(x: u, y: v)
        }
    }
}
