import TouchCore

/// A finger's path: points in millimetres, with room reserved once.
/// Longer paths are thinned (every other point dropped) rather than grown.
public struct Stroke: Sendable {
    public private(set) var points: [Point] = []
    private var stride = 1
    private var skipped = 0
    static let capacity = 1024

    public init() {
        points.reserveCapacity(Self.capacity)
    }

    public init(_ path: [Point]) {
        self.init()
        for p in path { append(p) }
    }

    /// Adds a point unless it repeats the last one or thinning skips it; `always` keeps
    /// it regardless (the lift point).
    public mutating func append(_ p: Point, always: Bool = false) {
        if let last = points.last, last == p { return }
        skipped += 1
        guard skipped >= stride || always else { return }
        skipped = 0
        if points.count == Self.capacity {
            var kept = 0
            for i in Swift.stride(from: 0, to: points.count, by: 2) {
                points[kept] = points[i]
                kept += 1
            }
            points.removeSubrange(kept...)
            stride *= 2
        }
        points.append(p)
    }

    /// The larger side of its bounding box; nil when empty.
    public var size: Double? {
        guard let first = points.first else { return nil }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return max(maxX - minX, maxY - minY)
    }

    public mutating func removeAll() {
        points.removeAll(keepingCapacity: true)
        stride = 1
        skipped = 0
    }
}
