import TouchCore

/// `fingers` fingers moving together, straight, far and fast enough, in `direction` (any
/// of eight), within `angle`, or any way when neither is set. Discrete: decided when the fingers lift, so a stroke
/// that turns (a checkmark) is not taken for a swipe halfway.
final class SwipeRecognizer: GestureRecognizer {
    /// How straight each finger's path must be: displacement over path length.
    private static let minStraightness = 0.8
    /// How far a finger's direction may stray from the fingers' mean direction.
    private static let maxSpreadDegrees = 35.0

    /// The fingers' mean travel (along `direction`, when set) over the distance it needs.
    override var progress: Double {
        guard !touches.isEmpty, spec.minDistanceMM > 0 else { return 0 }
        var mean = Point.zero
        for t in touches { mean = mean + millimetreVector(t.location - t.start) }
        mean = mean * (1 / Double(touches.count))
        let way = spec.direction?.unit ?? spec.angle?.middle
        let along = way.map { mean.x * $0.x + mean.y * $0.y } ?? mean.length
        return along / spec.minDistanceMM
    }

    override func touchBegan(_ index: Int) {
        if fingersDown > spec.fingers {
            fail("\(fingersDown) fingers down, a \(spec.fingers)-finger swipe")
        }
    }

    override func touchEnded(_ index: Int) {
        guard fingersDown == 0 else { return }
        guard mostFingersDown == spec.fingers else {
            return fail("\(mostFingersDown) finger(s) swiped, needs \(spec.fingers)")
        }
        var mean = Point.zero
        var straightness = 1.0
        var duration = 0.0
        for t in touches {
            let d = millimetreVector(t.location - t.start)
            mean = mean + d
            straightness = min(straightness, t.pathMM > 0 ? d.length / t.pathMM : 0)
            duration = max(duration, t.time.milliseconds(since: t.startTime))
        }
        mean = mean * (1 / Double(touches.count))
        let distance = mean.length
        guard distance >= spec.minDistanceMM else {
            return fail("moved \(distance.rounded0) mm, a swipe needs \(spec.minDistanceMM.rounded0) mm")
        }
        let speed = distance / max(duration, 1) * 1000
        guard speed >= spec.minSpeedMMPerS else {
            return fail("\(speed.rounded0) mm/s, a swipe needs \(spec.minSpeedMMPerS.rounded0) mm/s")
        }
        guard straightness >= Self.minStraightness else {
            return fail("path \(straightness.formatted2) straight, a swipe needs \(Self.minStraightness.formatted2)")
        }
        for t in touches {
            let spread = angleBetween(millimetreVector(t.location - t.start), mean)
            if spread > Self.maxSpreadDegrees {
                return fail("fingers moved \(spread.rounded0)° apart, a swipe allows \(Self.maxSpreadDegrees.rounded0)°")
            }
        }
        let direction = Direction(of: mean)
        if let wanted = spec.direction, wanted != direction {
            return fail("went \(direction.rawValue), needs \(wanted.rawValue)")
        }
        if let why = spec.angle?.refusal(of: mean) { return fail(why) }
        requestRecognition(quality: straightness, direction: direction, velocity: speed)
    }
}

/// The angle between two vectors, 0…180 degrees.
func angleBetween(_ a: Point, _ b: Point) -> Double {
    var d = abs(atan2Degrees(y: a.y, x: a.x) - atan2Degrees(y: b.y, x: b.x))
    if d > 180 { d = 360 - d }
    return d
}
