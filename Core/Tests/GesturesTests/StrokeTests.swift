import Gestures
import Testing

/// Strokes drawn through corner points (mm, y down) with 1 mm steps, as a finger would.
func stroke(_ corners: [(Double, Double)], from origin: (Double, Double) = (150, 100)) -> TouchScript {
    var s = TouchScript()
    let points = corners.map { ($0.0 + origin.0, $0.1 + origin.1) }
    s.down(1, at: points[0])
    var path: [(Double, Double)] = []
    for (a, b) in zip(points, points.dropFirst()) {
        let steps = max(1, Int(((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot()))
        for i in 1...steps {
            let t = Double(i) / Double(steps)
            path.append((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t))
        }
    }
    s.trace(1, through: path)
    s.up(1)
    return s
}

let strokeGestures: [GestureSpec] = [gesture("checkmark", .checkmark)] + [Direction.up, .down, .left, .right].map { d in
    gesture("chevron-\(d.rawValue)", .chevron) { $0.direction = d }
}

func reasons(_ s: TouchScript, _ specs: [GestureSpec]) -> [String] {
    var out: [String] = []
    _ = run(s, specs) { if $0.to == .failed { out.append("\($0.gesture): \($0.reason)") } }
    return out
}

@Suite struct StrokeTests {
    static let shapes: [(corners: [(Double, Double)], fires: String)] = [
        ([(0, 0), (10, 12), (35, -25)], "checkmark recognized"),
        ([(0, 0), (20, 30), (40, 0)], "chevron-down recognized down"),
        ([(0, 0), (20, -30), (40, 0)], "chevron-up recognized up"),
        ([(0, 0), (30, 20), (0, 40)], "chevron-right recognized right"),
        ([(0, 0), (-30, 20), (0, 40)], "chevron-left recognized left"),
    ]

    @Test func eachShapeFiresItsGestureAndNoOther() {
        for shape in Self.shapes {
            #expect(run(stroke(shape.corners), strokeGestures) == [shape.fires])
        }
    }

    @Test func aVIsNotACheckmarkEvenWhenOnlyTheCheckmarkIsBound() {
        #expect(run(stroke([(0, 0), (20, 30), (40, 0)]), [gesture("checkmark", .checkmark)]).isEmpty)
        let lopsided = stroke([(0, 0), (20, 30), (45, -5)])  // ends a little higher, like many real 'v's
        #expect(run(lopsided, strokeGestures) == ["chevron-down recognized down"])
        #expect(reasons(lopsided, [gesture("checkmark", .checkmark)]).first?.hasPrefix("checkmark: looks like a 'v': checkmark score") == true)
    }

    @Test func aCheckmarkIsNotAVWhenOnlyTheChevronIsBound() {
        let down = gesture("v", .chevron) { $0.direction = .down }
        let why = reasons(stroke([(0, 0), (14, 16), (40, -14)]), [down])
        #expect(why.count == 1 && why[0].hasPrefix("v: looks like a checkmark"))
    }

    @Test func wrongOrderOrRotationIsNotAChevron() {
        // '>' drawn from the bottom: the first stroke goes up-right.
        #expect(reasons(stroke([(0, 40), (30, 20), (0, 0)]), [gesture("r", .chevron) { $0.direction = .right }])
            == ["r: first stroke goes up-right, needs down-right"])
        // A '>' turned a quarter is a 'v' (pointing down), not a '>'.
        #expect(run(stroke([(0, 0), (20, 30), (40, 0)]), [gesture("r", .chevron) { $0.direction = .right }]).isEmpty)
    }

    @Test func failuresSayWhatWasMeasured() {
        let check = [gesture("checkmark", .checkmark)]
        #expect(reasons(stroke([(0, 0), (2, 3), (6, -3)]), check) == ["checkmark: stroke 6 mm across, needs 10 mm"])
        #expect(reasons(stroke([(0, 0), (10, 12), (35, 5)]), check) == ["checkmark: ends 5 mm lower than it began, must end higher"])
        #expect(reasons(stroke([(0, 0), (30, 0), (30, 30), (0, 30), (0, 0)]), check).first?.hasPrefix("checkmark: not two straight strokes") == true)
        #expect(reasons(stroke([(0, 0), (-10, 12), (35, -25)]), check) == ["checkmark: first stroke goes down-left, needs down-right"])
    }

    @Test func otherFingersAreIgnored() {
        var s = TouchScript()
        s.down(1, at: (150, 100))
        s.down(2, at: (50, 50))
        let down: [(Double, Double)] = (1...10).map { i in (150 + Double(i), 100 + Double(i) * 1.2) }
        let up: [(Double, Double)] = (1...25).map { i in (160 + Double(i), 112 - Double(i) * 1.48) }
        s.trace(1, through: down + up)
        s.up(2)
        s.up(1)
        #expect(run(s, [gesture("checkmark", .checkmark)]) == ["checkmark recognized"])
    }
}

@Suite struct ChevronPointingTests {
    @Test func aChevronTurnedTooFarFromItsDirectionIsNot() {
        // A '^' whose right arm drops straight down (a question mark's stem): its point
        // turns 30° towards the left.
        let up = gesture("up", .chevron) { $0.direction = .up }
        #expect(run(stroke([(0, 0), (25, -25), (15, 20)]), [up]).isEmpty)
        #expect(reasons(stroke([(0, 0), (25, -25), (15, 20)]), [up]).first?.hasPrefix("up: closer to a question mark than to a chevron-up") == true)
        // Turned further, the point itself is too far off.
        #expect(reasons(stroke([(0, 0), (30, -20), (25, 25)]), [up]).first?.contains("needs up within 30°") == true)
        #expect(run(stroke([(0, 0), (20, -30), (40, 0)]), [up]) == ["up recognized up"])
    }
}
