import TouchCore

/// `fingers` fingers that start within `edge_zone_mm` of `edge` (optionally only a part
/// of it, `edge_range`) and move inwards `min_distance_mm`. Discrete: recognized as soon
/// as the distance is covered, so panels and menus can follow the finger.
final class EdgeSwipeRecognizer: GestureRecognizer {
    /// How far the movement may stray from straight inwards.
    private static let maxAngleDegrees = 40.0

    private var edge: Edge { spec.edge ?? .left }

    /// The inward unit direction, in screen terms (y down).
    private var inward: Point {
        switch edge {
        case .left: Point(x: 1, y: 0)
        case .right: Point(x: -1, y: 0)
        case .top: Point(x: 0, y: 1)
        case .bottom: Point(x: 0, y: -1)
        }
    }

    override func touchBegan(_ index: Int) {
        if fingersDown > spec.fingers {
            return fail("\(fingersDown) fingers down, a \(spec.fingers)-finger edge swipe")
        }
        let start = touches[index].start
        let size = geometry.size
        let (fromEdgeMM, along) = switch edge {
        case .left: (start.x * size.width, start.y)
        case .right: ((1 - start.x) * size.width, start.y)
        case .top: (start.y * size.height, start.x)
        case .bottom: ((1 - start.y) * size.height, start.x)
        }
        if fromEdgeMM > spec.edgeZoneMM {
            fail("started \(fromEdgeMM.rounded0) mm from the \(edge.rawValue) edge, within \(spec.edgeZoneMM.rounded0) mm needed")
        } else if !spec.edgeRange.contains(along) {
            fail("started at \(along.formatted2) along the \(edge.rawValue) edge, outside \(spec.edgeRange.lowerBound.formatted2)…\(spec.edgeRange.upperBound.formatted2)")
        }
    }

    override func frameEnded() {
        guard state == .possible, request == nil, fingersDown == spec.fingers else { return }
        var mean = Point.zero
        for t in touches { mean = mean + millimetreVector(t.location - t.start) }
        mean = mean * (1 / Double(touches.count))
        if let range = spec.angle {
            // Any way within the range, as far as min_distance_mm.
            guard mean.length >= spec.minDistanceMM else { return }
            if let why = range.refusal(of: mean) { return fail(why) }
            return requestRecognition(quality: 1, direction: Direction(of: mean))
        }
        let inwardMM = mean.x * inward.x + mean.y * inward.y
        guard inwardMM >= spec.minDistanceMM else { return }
        let angle = angleBetween(mean, inward)
        guard angle <= Self.maxAngleDegrees else {
            return fail("moved \(angle.rounded0)° off straight inwards, at most \(Self.maxAngleDegrees.rounded0)°")
        }
        requestRecognition(quality: 1 - angle / 90, direction: Direction(of: inward))
    }

    override func touchEnded(_ index: Int) {
        var mean = Point.zero
        for t in touches { mean = mean + millimetreVector(t.location - t.start) }
        let inwardMM = (mean.x * inward.x + mean.y * inward.y) / Double(max(touches.count, 1))
        if mostFingersDown < spec.fingers {
            fail("\(mostFingersDown) finger(s), an edge swipe needs \(spec.fingers)")
        } else {
            fail("lifted after \(inwardMM.rounded0) mm inwards, an edge swipe needs \(spec.minDistanceMM.rounded0) mm")
        }
    }
}
