import TouchCore

/// What checkmark and chevron share: they follow the first finger only (others are
/// ignored, as UIKit's `ignore(_:for:)` does), record its path in millimetres, and
/// judge the shape when it lifts.
class StrokeRecognizer: GestureRecognizer {
    /// The path of the first finger, in millimetres (y down).
    private(set) var stroke = Stroke()
    let matcher: StrokeMatcher

    init(spec: GestureSpec, geometry: DeviceGeometry, output: RecognizerOutput, matcher: StrokeMatcher) {
        self.matcher = matcher
        super.init(spec: spec, geometry: geometry, output: output)
    }

    /// Judges the finished stroke: requests recognition or fails with a reason.
    func judge(_ stroke: Stroke) {}

    override func touchBegan(_ index: Int) {
        if index == 0 { stroke.append(millimetreVector(touches[0].start)) }
    }

    override func touchMoved(_ index: Int) {
        if index == 0 { stroke.append(millimetreVector(touches[0].location)) }
    }

    override func touchEnded(_ index: Int) {
        guard index == 0 else { return }
        stroke.append(millimetreVector(touches[0].location), always: true)
        judge(stroke)
        if state == .possible, request == nil { fail("undecided stroke") }
    }

    /// This stroke, as the matcher tells strokes apart.
    var strokeKey: StrokeMatcher.StrokeKey {
        StrokeMatcher.StrokeKey(sequence: output.sequence, touch: touches.first?.id ?? -1, count: stroke.points.count)
    }

    /// Whether `shape` is the closest of the shapes `among` accepts; fails naming the
    /// closer one otherwise.
    func isClosest(_ shape: Int, among: (StrokeMatcher.Shape) -> Bool) -> Bool {
        guard let (closest, runnerUp) = matcher.rank(stroke, strokeKey, among: among) else { return true }
        let shapes = matcher.shapes
        func score(_ i: Int) -> String { matcher.similarity(i).formatted2 }
        if closest != shape {
            fail("closer to \(shapes[closest].description) than to \(shapes[shape].description): \(score(closest)) vs \(score(shape))")
            return false
        }
        explain("closest to \(shapes[shape].description) (\(score(shape)))"
                + (runnerUp.map { ", then \(shapes[$0].description) (\(score($0)))" } ?? ""))
        return true
    }

    override func reset() {
        super.reset()
        stroke.removeAll()
    }
}

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
