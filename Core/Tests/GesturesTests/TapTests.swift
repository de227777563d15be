@testable import Gestures
import Testing

@Suite struct TapTests {
    let tap = gesture("tap", .tap)

    func taps(_ count: Int, fingers: Int = 1, gapMs: Double = 120, holdMs: Double = 60) -> TouchScript {
        var s = TouchScript()
        for n in 0..<count {
            let ids = (0..<fingers).map { n * 10 + $0 }
            s.down(Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, (100.0 + Double($0) * 15, 100.0)) }))
            s.hold(holdMs)
            s.emitUp(ids)
            s.wait(gapMs)
        }
        return s
    }

    @Test func singleTaps() {
        #expect(run(taps(3), [tap]) == ["tap recognized", "tap recognized", "tap recognized"])
    }

    @Test func twoFingerTapNeedsBothFingers() {
        let two = gesture("two", .tap) { $0.fingers = 2 }
        #expect(run(taps(1, fingers: 2), [two]) == ["two recognized"])
        var reasons: [String] = []
        #expect(run(taps(1, fingers: 1), [two]) { reasons.append($0.reason) } == [])
        #expect(reasons.contains("1 finger(s) tapped, needs 2"))
        #expect(run(taps(1, fingers: 3), [two]).isEmpty)
    }

    @Test func aHeldFingerIsNotATapAndSaysWhyAtItsDeadline() {
        var reasons: [String] = []
        #expect(run(taps(1, holdMs: 1200), [tap]) { reasons.append("\($0.to) \($0.reason)") } == [])
        #expect(reasons.contains("failed fingers down longer than 1000 ms: not a tap"))
    }

    @Test func movingTooFarFails() {
        var s = TouchScript()
        s.down(1, at: (100, 100))
        s.move(1, by: (10, 0), steps: 3)
        s.up(1)
        var reasons: [String] = []
        #expect(run(s, [tap]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons == ["a finger moved 7 mm, a tap allows 6 mm"])
    }

    @Test func doubleTapWinsOverSingleTapsWhenBoth() {
        let double = gesture("double", .tap) { $0.taps = 2 }
        #expect(run(taps(2), [tap, double]) == ["double recognized"])
        // Five taps: two doubles, then a single once the wait for a second tap runs out.
        #expect(run(taps(5), [tap, double]) == ["double recognized", "double recognized", "tap recognized"])
        // Alone, a double tap needs its second tap in time.
        var reasons: [String] = []
        #expect(run(taps(2, gapMs: 500), [double]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons.contains("no tap 2 within 350 ms, needs 2 taps"))
    }

    @Test func theSingleTapIsDelayedUntilTheDoubleTapFails() {
        let double = gesture("double", .tap) { $0.taps = 2 }
        let steps = taps(1).steps([tap, double])
        let lift = try! #require(steps.lastIndex { $0.frame != nil })
        #expect(steps[...lift].allSatisfy { $0.events.isEmpty })
        // After the lift, only a deadline step: the single tap, at the deadline it announced.
        let deadline = try! #require(steps[lift].nextDeadline)
        #expect(steps.count == lift + 2)
        #expect(steps.last?.events.map(\.name) == ["tap"])
        #expect(steps.last?.events.first?.time == deadline)
        #expect(steps.last?.nextDeadline == nil)
    }

    @Test func aDeadlineBeyondTheEndOfTimeNeverComesAndCrashesNothing() {
        let patient = gesture("tap", .tap) { $0.maxDurationMS = 1e300; $0.maxIntervalMS = .infinity }
        #expect(run(taps(1), [patient]) == ["tap recognized"])
    }

    @Test func simultaneousTapsBothFire() {
        let double = gesture("double", .tap) { $0.taps = 2; $0.simultaneousWith = ["tap"] }
        #expect(run(taps(2), [tap, double]) == ["tap recognized", "tap recognized", "double recognized"])
    }

    @Test func laterTapsMustLandNearTheFirst() {
        let double = gesture("double", .tap) { $0.taps = 2 }
        var s = TouchScript()
        s.down(1, at: (50, 50)); s.hold(30); s.up(1); s.wait(100)
        s.down(2, at: (200, 150)); s.hold(30); s.up(2)
        var reasons: [String] = []
        #expect(run(s, [double]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons.contains { $0.hasPrefix("tap 2 landed 180 mm from the first") })
    }
}

extension TouchScript {
    mutating func emitUp(_ ids: [Int]) {
        for id in ids { up(id) }
    }
}

@Suite struct StateMachineTests {
    /// A pair the state machine has no transition for is a bug, reported, not dropped.
    @Test func anImpossibleTransitionIsReportedAsABug() {
        let arbiter = Arbiter(gestures: [gesture("tap", .tap)], geometry: TouchScript.geometry)
        let tap = arbiter.recognizers[0]
        tap.fail("a test")
        #expect(tap.state == .failed)
        #expect(!tap.apply(.grant, "a test"))
        #expect(tap.state == .failed)
        #expect(arbiter.bugs == ["tap: grant in state failed (a test)"])
    }
}
