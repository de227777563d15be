import TouchCore

/// A one-finger stroke seen as two straight strokes meeting at a corner: the model of
/// both the checkmark and the chevrons. Measured on the path resampled to evenly spaced
/// points, so speed and sampling rate do not matter, and in millimetres, so size does
/// not either beyond the minimum. This is the gate a stroke passes before the templates
/// (`StrokeMatcher`) tell it from the shapes it resembles: the limits were set by hand on
/// the $1 and MMG stroke logs, and those the templates took over from (how far from two
/// strokes, how far the point turns, how long the path) were then widened.
struct StrokeShape {
    /// Points the path is resampled to: enough for a corner, few enough to be cheap.
    static let resampledCount = 48
    /// How far the path may stray from the two straight strokes, in parts of its size
    /// (a 'v' strays up to 0.18, a rare '>' 0.27; brackets, circles and stars 0.2 to 0.6).
    static let maxDeviation = 0.3
    /// Straight arms: their mean distance from their chord, in parts of their length
    /// (chevrons 0.02 to 0.1; curly braces and question marks 0.07 to 0.3).
    static let maxArmBend = 0.10
    /// Evenly bowed arms (a stylus drawing '>' as two arcs) may bend more if they bend
    /// to one side only; S-shaped arms (braces) bend to both.
    static let maxBowedArmBend = 0.14
    static let maxBowedTwoSidedBend = 0.03
    /// Path length over the two arms' chords: hooks and loops make it longer (a few
    /// chevrons drawn fast reach 1.34).
    static let maxPathRatio = 1.4
    /// Checkmark score (arm ratio + opening / 40° + 2 × rise over length): checkmarks
    /// score 4.0 and more, 'v' strokes 3.5 and less (3.96 the most seen).
    static let checkmarkScore = 3.8
    /// How far a chevron's point may turn from its direction: 99 % of real chevrons are
    /// within 18°, a few 26°; question marks read as '^' and brackets as '>', 27° and
    /// more off, are left to the templates.
    static let maxPointingOffDegrees = 30.0

    /// Size: the larger side of the bounding box, in mm.
    let size: Double
    let start: Point, corner: Point, end: Point
    /// Largest distance from the two-stroke model, in parts of `size`.
    let deviation: Double
    /// Mean distance of each arm from its chord, in parts of its length (the larger).
    let armBend: Double
    /// The smaller of an arm's largest excursions to either side of its chord, in parts
    /// of its length (the larger over both arms): S-shaped arms score high.
    let twoSidedBend: Double
    let pathRatio: Double

    /// The first and second arm as vectors with y pointing up (directions read as on paper).
    var firstArm: Point { Point(x: corner.x - start.x, y: start.y - corner.y) }
    var secondArm: Point { Point(x: end.x - corner.x, y: corner.y - end.y) }
    var firstAngle: Double { atan2Degrees(y: firstArm.y, x: firstArm.x) }
    var secondAngle: Double { atan2Degrees(y: secondArm.y, x: secondArm.x) }
    /// The angle between the arms at the corner.
    var opening: Double { angleBetween(Point(x: -firstArm.x, y: -firstArm.y), secondArm) }
    /// How much higher the end is than the start, in mm.
    var rise: Double { start.y - end.y }

    var checkmarkScore: Double {
        let l1 = firstArm.length, l2 = secondArm.length
        return l2 / max(l1, 0.001) + opening / 40 + 2 * rise / max(l1 + l2, 0.001)
    }

    /// Where the corner points: away from the mean of the arms' directions from it (y up).
    var pointing: Double {
        let u1 = Point(x: -firstArm.x, y: -firstArm.y) * (1 / max(firstArm.length, 0.001))
        let u2 = secondArm * (1 / max(secondArm.length, 0.001))
        return atan2Degrees(y: -(u1.y + u2.y), x: -(u1.x + u2.x))
    }

    /// Nil for a stroke with fewer than two distinct points. `resampled` is room for
    /// `resampledCount` points, kept by the `StrokeMatcher` so judging allocates nothing.
    init?(_ stroke: Stroke, resampled: inout [Point]) {
        guard let pathLength = Self.resample(stroke.points, into: &resampled) else { return nil }
        let p = resampled
        var minX = p[0].x, maxX = p[0].x, minY = p[0].y, maxY = p[0].y
        for q in p {
            minX = min(minX, q.x); maxX = max(maxX, q.x)
            minY = min(minY, q.y); maxY = max(maxY, q.y)
        }
        size = max(maxX - minX, maxY - minY)

        // The corner: the split that makes two segments fit best (least squares).
        let n = p.count
        var best = (error: Double.infinity, k: 1)
        for k in 3..<(n - 3) {
            var error = 0.0
            for i in 0...k { error += squared(segmentDistance(p[i], p[0], p[k])) }
            for i in k..<n { error += squared(segmentDistance(p[i], p[k], p[n - 1])) }
            if error < best.error { best = (error, k) }
        }
        let k = best.k
        start = p[0]
        corner = p[k]
        end = p[n - 1]

        var worst = 0.0, bend = 0.0, twoSided = 0.0
        func measureArm(_ from: Point, _ to: Point, _ range: ClosedRange<Int>) {
            let length = max(from.distance(to: to), 0.001)
            var sum = 0.0, left = 0.0, right = 0.0
            for i in range {
                worst = max(worst, segmentDistance(p[i], from, to))
                let side = signedDistance(p[i], from, to)
                sum += segmentDistance(p[i], from, to)
                left = max(left, side)
                right = max(right, -side)
            }
            bend = max(bend, sum / Double(range.count) / length)
            twoSided = max(twoSided, min(left, right) / length)
        }
        measureArm(p[0], p[k], 0...k)
        measureArm(p[k], p[n - 1], k...(n - 1))
        deviation = worst / max(size, 0.001)
        armBend = bend
        twoSidedBend = twoSided
        pathRatio = pathLength / max(start.distance(to: corner) + corner.distance(to: end), 0.001)
    }

    /// Spreads `count` points evenly along the path; returns the path length.
    static func resample(_ points: [Point], into out: inout [Point]) -> Double? {
        var length = 0.0
        for i in 1..<max(points.count, 1) { length += points[i].distance(to: points[i - 1]) }
        guard points.count >= 2, length > 0 else { return nil }
        let step = length / Double(out.count - 1)
        out[0] = points[0]
        var filled = 1, carried = 0.0, previous = points[0], i = 1
        while i < points.count, filled < out.count {
            let d = previous.distance(to: points[i])
            if carried + d >= step, d > 0 {
                let t = (step - carried) / d
                previous = previous + (points[i] - previous) * t
                out[filled] = previous
                filled += 1
                carried = 0
            } else {
                carried += d
                previous = points[i]
                i += 1
            }
        }
        while filled < out.count { out[filled] = points[points.count - 1]; filled += 1 }
        return length
    }
}

private func squared(_ x: Double) -> Double { x * x }

/// Distance from `p` to the segment a–b.
func segmentDistance(_ p: Point, _ a: Point, _ b: Point) -> Double {
    let d = b - a
    let l2 = d.x * d.x + d.y * d.y
    guard l2 > 0 else { return p.distance(to: a) }
    let t = min(1, max(0, ((p.x - a.x) * d.x + (p.y - a.y) * d.y) / l2))
    return p.distance(to: a + d * t)
}

/// Distance from `p` to the line a–b, positive on one side and negative on the other.
private func signedDistance(_ p: Point, _ a: Point, _ b: Point) -> Double {
    let d = b - a
    let length = d.length
    guard length > 0 else { return 0 }
    return ((p.x - a.x) * d.y - (p.y - a.y) * d.x) / length
}

/// The difference between two angles in degrees, 0…180.
func angleDifference(_ a: Double, _ b: Double) -> Double {
    var d = abs(a - b).truncatingRemainder(dividingBy: 360)
    if d > 180 { d = 360 - d }
    return d
}
