import RealModule

/// $P's point-cloud distance (Vatavu, Anthony and Wobbrock 2012) between two strokes in
/// `StrokeTemplate`'s form, each point carrying its turning angle as $P+ does (Vatavu
/// 2017): the points are matched greedily, each of one to the nearest not yet taken of the
/// other, from several starting points both ways, the earlier matches weighing more; the
/// least sum wins. Blind to the order and direction the points were drawn in (a star
/// begun at another tip, a circle drawn the other way), not to the shape's orientation (a
/// left bracket stays apart from a right one) nor to how sharply it turns where (a
/// bracket's two corners against a brace's three softer bends). Measured on strokes
/// scaled to a root-mean-square radius of 1, where one person's strokes of a shape lie 1
/// to 4 apart; two points whose turns differ by a half turn lie 1 further apart.
enum PointCloud {
    static let pointCount = StrokeTemplate.pointCount
    /// $P's starting points: every ⌊√n⌋th.
    private static let startStep = 5

    /// Each point's turning angle into `turns` (`pointCount` of them): the angle between
    /// the path into it and out of it, over π (0 straight on, 1 back the way it came); 0
    /// at the ends and where the path does not move.
    static func turning(_ v: UnsafePointer<Float>, into turns: UnsafeMutablePointer<Float>) {
        let n = pointCount
        turns[0] = 0
        turns[n - 1] = 0
        for i in 1..<(n - 1) {
            let ax = v[2 * i] - v[2 * i - 2], ay = v[2 * i + 1] - v[2 * i - 1]
            let bx = v[2 * i + 2] - v[2 * i], by = v[2 * i + 3] - v[2 * i + 1]
            let lengths = ((ax * ax + ay * ay) * (bx * bx + by * by)).squareRoot()
            guard lengths > 1e-12 else { turns[i] = 0; continue }
            turns[i] = Float.acos(min(1, max(-1, (ax * bx + ay * by) / lengths))) / Float.pi
        }
    }

    /// The turning angles of vectors laid end to end, `pointCount` for each.
    static func turning(_ vectors: [Float]) -> [Float] {
        var turns = [Float](repeating: 0, count: vectors.count / 2)
        vectors.withUnsafeBufferPointer { v in
            turns.withUnsafeMutableBufferPointer { t in
                for k in 0..<(vectors.count / (2 * pointCount)) {
                    turning(v.baseAddress! + 2 * pointCount * k, into: t.baseAddress! + pointCount * k)
                }
            }
        }
        return turns
    }

    /// The distance between the strokes whose vectors start at `a` and `b`, whose turning
    /// angles start at `aTurns` and `bTurns`; `taken` has room for `pointCount` flags.
    /// `stopAt`: a sum past it is not finished (returned as is).
    static func distance(_ a: UnsafePointer<Float>, _ aTurns: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                         _ bTurns: UnsafePointer<Float>, taken: UnsafeMutablePointer<Bool>, stopAt: Float = .infinity) -> Float {
        var best = stopAt
        for start in Swift.stride(from: 0, to: pointCount, by: startStep) {
            best = min(best, greedy(a, aTurns, b, bTurns, from: start, taken: taken, stopAt: best))
            best = min(best, greedy(b, bTurns, a, aTurns, from: start, taken: taken, stopAt: best))
        }
        return best
    }

    private static func greedy(_ a: UnsafePointer<Float>, _ aTurns: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                               _ bTurns: UnsafePointer<Float>, from start: Int, taken: UnsafeMutablePointer<Bool>,
                               stopAt: Float) -> Float {
        let n = pointCount
        // Vectors are of unit length: √n scales them to a root-mean-square radius of 1.
        let squaredScale = Float(n)
        taken.update(repeating: false, count: n)
        var sum: Float = 0
        for k in 0..<n {
            let i = (start + k) % n
            let x = a[2 * i], y = a[2 * i + 1], turn = aTurns[i]
            var nearest = 0, least = Float.infinity
            for j in 0..<n where !taken[j] {
                let dx = x - b[2 * j], dy = y - b[2 * j + 1], dt = turn - bTurns[j]
                let d = (dx * dx + dy * dy) * squaredScale + dt * dt
                if d < least { least = d; nearest = j }
            }
            taken[nearest] = true
            sum += (1 - Float(k) / Float(n)) * least.squareRoot()
            if sum >= stopAt { return sum }
        }
        return sum
    }
}
