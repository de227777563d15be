/// $P's point-cloud distance (Vatavu, Anthony and Wobbrock 2012) between two strokes in
/// `StrokeTemplate`'s form: the points are matched greedily, each of one to the nearest
/// not yet taken of the other, from several starting points both ways, the earlier
/// matches weighing more; the least sum wins. Blind to the order and direction the
/// points were drawn in (a star begun at another tip, a circle drawn the other way), not
/// to the shape's orientation: a left bracket stays apart from a right one. Measured on
/// strokes scaled to a root-mean-square radius of 1, where one person's strokes of a shape
/// lie 1 to 4 apart.
enum PointCloud {
    static let pointCount = StrokeTemplate.pointCount
    /// $P's starting points: every ⌊√n⌋th.
    private static let startStep = 5

    /// The distance between the strokes whose vectors start at `a` and `b`; `taken` has
    /// room for `pointCount` flags. `stopAt`: a sum past it is not finished (returned as is).
    static func distance(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, taken: UnsafeMutablePointer<Bool>,
                         stopAt: Float = .infinity) -> Float {
        var best = stopAt
        for start in Swift.stride(from: 0, to: pointCount, by: startStep) {
            best = min(best, greedy(a, b, from: start, taken: taken, stopAt: best))
            best = min(best, greedy(b, a, from: start, taken: taken, stopAt: best))
        }
        return best
    }

    private static func greedy(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, from start: Int,
                               taken: UnsafeMutablePointer<Bool>, stopAt: Float) -> Float {
        let n = pointCount
        // Vectors are of unit length: √n scales them to a root-mean-square radius of 1.
        let scale = Float(n).squareRoot()
        taken.update(repeating: false, count: n)
        var sum: Float = 0
        for k in 0..<n {
            let i = (start + k) % n
            let x = a[2 * i], y = a[2 * i + 1]
            var nearest = 0, least = Float.infinity
            for j in 0..<n where !taken[j] {
                let dx = x - b[2 * j], dy = y - b[2 * j + 1]
                let d = dx * dx + dy * dy
                if d < least { least = d; nearest = j }
            }
            taken[nearest] = true
            sum += (1 - Float(k) / Float(n)) * least.squareRoot() * scale
            if sum >= stopAt { return sum }
        }
        return sum
    }
}
