import Foundation
import Gestures
import Testing

@Suite struct LongPressTests {
    let press = gesture("press", .longPress)

    @Test func recognizedAtItsDeadlineWhileStillDown() {
        var s = TouchScript()
        s.down(1, at: (100, 100))
        s.hold(600)
        s.up(1)
        #expect(run(s, [press]) == ["press recognized"])
    }

    @Test func recognizedWithNoFramesWhileTheFingerRestsThanksToTheDeadline() {
        var s = TouchScript()
        s.down(1, at: (100, 100))
        s.wait(700)  // a still finger: the panel sends nothing
        s.up(1)
        #expect(run(s, [press]) == ["press recognized"])
    }

    @Test func liftingEarlyOrMovingFails() {
        var early = TouchScript()
        early.down(1, at: (100, 100)); early.hold(200); early.up(1)
        var reasons: [String] = []
        #expect(run(early, [press]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons.contains("lifted after 210 ms, a long press needs 500 ms with 1 finger(s)"))

        var moving = TouchScript()
        moving.down(1, at: (100, 100)); moving.move(1, by: (20, 0)); moving.hold(600); moving.up(1)
        #expect(run(moving, [press]).isEmpty)
    }
}

@Suite struct SwipeTests {
    @Test(arguments: [
        ((40.0, 0.0), "right"), ((-40.0, 0.0), "left"), ((0.0, -40.0), "up"), ((0.0, 40.0), "down"),
        ((30.0, 30.0), "down-right"), ((-30.0, -30.0), "up-left"),
    ])
    func eightDirections(delta: (Double, Double), direction: String) {
        var s = TouchScript()
        s.down(1, at: (150, 100)); s.move(1, by: delta); s.up(1)
        #expect(run(s, [gesture("swipe", .swipe)]) == ["swipe recognized \(direction)"])
    }

    @Test func threeFingersDownOnlyForTheKioskMenu() {
        let menu = gesture("menu", .swipe) { $0.fingers = 3; $0.direction = .down }
        var s = TouchScript()
        s.down([1: (100, 50), 2: (120, 50), 3: (140, 50)])
        s.move([1: (0, 60), 2: (0, 60), 3: (0, 60)])
        s.up(1, 2, 3)
        #expect(run(s, [menu]) == ["menu recognized down"])

        var two = TouchScript()
        two.down([1: (100, 50), 2: (120, 50)]); two.move([1: (0, 60), 2: (0, 60)]); two.up(1, 2)
        var reasons: [String] = []
        #expect(run(two, [menu]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons.contains("2 finger(s) swiped, needs 3"))

        var up = TouchScript()
        up.down([1: (100, 150), 2: (120, 150), 3: (140, 150)]); up.move([1: (0, -60), 2: (0, -60), 3: (0, -60)]); up.up(1, 2, 3)
        reasons = []
        #expect(run(up, [menu]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons.contains("went up, needs down"))
    }

    @Test func tooShortTooSlowOrCurvedFails() {
        let swipe = gesture("swipe", .swipe)
        var reasons: [String] = []
        var short = TouchScript()
        short.down(1, at: (100, 100)); short.move(1, by: (12, 0)); short.up(1)
        #expect(run(short, [swipe]) { reasons.append($0.reason) }.isEmpty)
        var slow = TouchScript()
        slow.down(1, at: (100, 100)); slow.move(1, by: (30, 0), steps: 200); slow.up(1)
        #expect(run(slow, [swipe]) { reasons.append($0.reason) }.isEmpty)
        var curved = TouchScript()
        curved.down(1, at: (100, 100)); curved.move(1, by: (30, 30)); curved.move(1, by: (30, -30)); curved.up(1)
        #expect(run(curved, [swipe]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons.filter { $0.hasPrefix("moved 12 mm, a swipe needs 20 mm") }.count == 1)
        #expect(reasons.contains { $0.hasPrefix("15 mm/s, a swipe needs 25 mm/s") })
        #expect(reasons.contains { $0.hasPrefix("path 0.71 straight, a swipe needs 0.80") })
    }
}

@Suite struct ContinuousTests {
    @Test func panBeginsChangesAndEnds() {
        var s = TouchScript()
        s.down([1: (100, 100), 2: (130, 100)])
        s.move([1: (30, 0), 2: (30, 0)], steps: 6)
        s.up(1, 2)
        let events = run(s, [gesture("pan", .pan) { $0.fingers = 2 }])
        #expect(events.first == "pan began right")
        #expect(events.dropFirst().dropLast().allSatisfy { $0 == "pan changed right" })
        #expect(events.count == 7)  // 5 mm per frame: began at the first, 5 changes, ended
        #expect(events.last == "pan ended right")
    }

    @Test func aFingerTooManyFailsAPanDecidingButNotOneUnderWay() {
        var late = TouchScript()
        late.down([1: (100, 100), 2: (130, 100)])
        late.move([1: (30, 0), 2: (30, 0)], steps: 6)
        late.down(3, at: (160, 100))  // `run` expects no bug: no fail of a gesture under way
        late.move([1: (30, 0), 2: (30, 0), 3: (30, 0)], steps: 6)
        late.up(1, 2, 3)
        let events = run(late, [gesture("pan", .pan) { $0.fingers = 2 }])
        #expect(events.first == "pan began right" && events.last == "pan ended right")

        var early = TouchScript()
        early.down([1: (100, 100), 2: (130, 100), 3: (160, 100)])
        early.move([1: (30, 0), 2: (30, 0), 3: (30, 0)], steps: 6)
        early.up(1, 2, 3)
        #expect(run(early, [gesture("pan", .pan) { $0.fingers = 2 }]).isEmpty)
    }

    @Test func pinchAndRotateRunTogetherWhenSimultaneous() {
        let pinch = gesture("pinch", .pinch) { $0.simultaneousWith = ["rotate"] }
        let rotate = gesture("rotate", .rotate)
        var s = TouchScript()
        s.down([1: (100, 100), 2: (140, 100)])
        // Spread apart and turn: the second finger swings down and out.
        s.trace(2, through: (1...10).map { i in
            let a = Double(i) * 0.06, r = 40 + Double(i) * 3
            return (100 + r * Foundation.cos(a), 100 + r * Foundation.sin(a))
        })
        s.up(1, 2)
        let events = run(s, [pinch, rotate])
        #expect(events.contains("pinch began") && events.contains("rotate began"))
        #expect(events.contains("pinch ended") && events.contains("rotate ended"))

        // Without simultaneous_with, the first to begin wins.
        let alone = run(s, [gesture("pinch", .pinch), rotate])
        #expect(alone.filter { $0.hasSuffix("began") }.count == 1)
    }

    @Test func pinchReportsScale() throws {
        var s = TouchScript()
        s.down([1: (100, 100), 2: (140, 100)])
        s.move([1: (-10, 0), 2: (10, 0)], steps: 4)
        s.up(1, 2)
        let last = s.steps([gesture("pinch", .pinch)]).flatMap(\.events).last
        let end = try #require(last)
        #expect(end.phase == .ended)
        #expect(abs(try #require(end.scale) - 1.5) < 0.001)
    }

    @Test func cancelledTouchesCancelAContinuousGesture() {
        var s = TouchScript()
        s.down(1, at: (100, 100)); s.move(1, by: (30, 0)); s.cancelAll()
        let events = run(s, [gesture("pan", .pan)])
        #expect(events.first == "pan began right")
        #expect(events.last == "pan cancelled right")
    }
}

@Suite struct EdgeSwipeTests {
    let fromLeft = gesture("from-left", .edgeSwipe) { $0.edge = .left }

    @Test func startsAtTheEdgeAndRecognizesBeforeTheLift() throws {
        var s = TouchScript()
        s.down(1, at: (3, 100)); s.move(1, by: (40, 0))
        var firedWhileDown = false
        for step in s.steps([fromLeft]) where !step.events.isEmpty {
            firedWhileDown = step.frame?.touches.allSatisfy { $0.phase.isDown } ?? false
        }
        #expect(firedWhileDown)
    }

    @Test func tooFarFromTheEdgeOrOutsideItsRangeFails() {
        var reasons: [String] = []
        var s = TouchScript()
        s.down(1, at: (30, 100)); s.move(1, by: (40, 0)); s.up(1)
        #expect(run(s, [fromLeft]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons.contains("started 30 mm from the left edge, within 8 mm needed"))
        let upperHalf = gesture("upper", .edgeSwipe) { $0.edge = .left; $0.edgeRange = 0...0.5 }
        var low = TouchScript()
        low.down(1, at: (2, 180)); low.move(1, by: (40, 0)); low.up(1)
        #expect(run(low, [upperHalf]).isEmpty)
    }
}

@Suite struct ArbitrationTests {
    @Test func regionsOnlySeeTouchesThatBeganInThem() {
        let corner = gesture("corner", .tap) {
            $0.region = Region(name: "top-right", x: 0.9...1, y: 0...0.1)
        }
        var inside = TouchScript()
        inside.down(1, at: (295, 5)); inside.up(1)
        var outside = TouchScript()
        outside.down(1, at: (150, 100)); outside.up(1)
        #expect(run(inside, [corner]) == ["corner recognized"])
        #expect(run(outside, [corner]).isEmpty)
    }

    @Test func requiresFailureOfHoldsAndThenFailsWhenTheOtherWins() {
        let swipe = gesture("swipe", .swipe)
        let edge = gesture("edge", .edgeSwipe) { $0.edge = .left }
        let waiting = gesture("swipe", .swipe) { $0.requiresFailureOf = ["edge"] }
        var s = TouchScript()
        s.down(1, at: (150, 100)); s.move(1, by: (40, 0)); s.up(1)
        #expect(run(s, [waiting, edge]) == ["swipe recognized right"])  // the edge swipe failed at once
        var fromEdge = TouchScript()
        fromEdge.down(1, at: (2, 100)); fromEdge.move(1, by: (40, 0)); fromEdge.up(1)
        #expect(run(fromEdge, [waiting, edge]) == ["edge recognized right"])
        #expect(run(fromEdge, [swipe, edge]) == ["edge recognized right"])  // decided first, while moving
    }

    @Test func sameFrameIsDecidedByQualityThenOrder() {
        let a = gesture("a", .swipe), b = gesture("b", .swipe)
        var s = TouchScript()
        s.down(1, at: (150, 100)); s.move(1, by: (40, 0)); s.up(1)
        #expect(run(s, [a, b]) == ["a recognized right"])
        #expect(run(s, [b, a]) == ["b recognized right"])
        // A tap and a swipe both decide at the lift; only one of them can match.
        #expect(run(s, [gesture("tap", .tap), a]) == ["a recognized right"])
    }

    @Test func explanationsRecordEveryTransitionWithItsReason() {
        var s = TouchScript()
        s.down(1, at: (150, 100)); s.move(1, by: (40, 0)); s.up(1)
        var log: [String] = []
        _ = run(s, [gesture("tap", .tap), gesture("swipe", .swipe)]) { log.append("\($0.gesture): \($0.from) → \($0.to): \($0.reason)") }
        #expect(log == [
            "tap: possible → failed: a finger moved 8 mm, a tap allows 6 mm",
            "swipe: possible → ended: recognized (quality 1.00)",
        ])
    }
}

@Suite struct RotateTests {
    /// Two fingers 40 mm apart, the second swinging `degrees` about the first.
    func turn(_ degrees: Double, steps: Int = 10) -> TouchScript {
        var s = TouchScript()
        s.down([1: (100, 100), 2: (140, 100)])
        let path: [(Double, Double)] = (1...steps).map { i in
            let a = Double(i) / Double(steps) * degrees * Double.pi / 180
            return (100 + 40 * Foundation.cos(a), 100 + 40 * Foundation.sin(a))
        }
        s.trace(2, through: path)
        s.up(1, 2)
        return s
    }

    @Test func reportsTheRotationClockwisePositive() throws {
        let events = turn(45).steps([gesture("turn", .rotate)]).flatMap(\.events)
        #expect(events.first?.phase == .began)
        #expect(events.last?.phase == .ended)
        let rotation = try #require(events.last?.rotation)
        #expect(abs(rotation - Double.pi / 4) < 0.01)
        #expect(run(turn(-45), [gesture("turn", .rotate)]).count > 2)
    }

    @Test func aSmallTurnIsNotARotationAndSaysHowFarItGot() {
        var reasons: [String] = []
        #expect(run(turn(6), [gesture("turn", .rotate)]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons == ["fingers lifted after 0.10 rad, a rotation needs 0.20 rad"])
    }

    @Test func oneFingerCannotRotate() {
        var s = TouchScript()
        s.down(1, at: (100, 100)); s.move(1, by: (20, 20)); s.up(1)
        var reasons: [String] = []
        #expect(run(s, [gesture("turn", .rotate)]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons == ["1 finger(s), a rotate needs 2"])
    }
}

@Suite struct MoreFailureTests {
    @Test func aLongPressWithTooManyFingersFails() {
        var s = TouchScript()
        s.down([1: (100, 100), 2: (130, 100)])
        s.hold(600)
        s.up(1, 2)
        var reasons: [String] = []
        #expect(run(s, [gesture("press", .longPress)]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons == ["2 fingers down, a 1-finger long press"])
    }

    @Test func anEdgeSwipeThatStopsShortFailsAtTheLift() {
        var s = TouchScript()
        s.down(1, at: (2, 100)); s.move(1, by: (10, 0)); s.up(1)
        var reasons: [String] = []
        #expect(run(s, [gesture("edge", .edgeSwipe) { $0.edge = .left }]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons == ["lifted after 10 mm inwards, an edge swipe needs 20 mm"])
    }

    @Test func aPanNeverBegunFailsWithItsDistance() {
        var s = TouchScript()
        s.down(1, at: (100, 100)); s.move(1, by: (3, 0), steps: 3); s.up(1)
        var reasons: [String] = []
        #expect(run(s, [gesture("pan", .pan)]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons == ["fingers lifted after 3 mm, a pan needs 5 mm"])
    }
}
