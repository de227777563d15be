@testable import Gestures
import Testing

/// `then`: steps recognized one after another as one gesture, on the same fingers or the
/// next touches, with the waits UIKit's require-to-fail gives.
@Suite struct SequenceTests {
    func sequence(_ name: String, _ first: GestureSpec, then later: GestureSpec...) -> GestureSpec {
        var spec = later.last!
        spec.name = name
        spec.earlierSteps = [first] + later.dropLast()
        return spec
    }

    func tap(at x: Double = 100, _ s: inout TouchScript, id: Int) {
        s.down(id, at: (x, 100))
        s.hold(50)
        s.up(id)
    }

    @Test func aHoldThenASwipeOfTheSameFingerIsOneGesture() {
        let holdThenSwipe = sequence("hold-swipe", gesture("", .longPress), then: gesture("", .swipe) { $0.direction = .up })
        var s = TouchScript()
        s.down(1, at: (100, 150))
        s.hold(600)
        s.move(1, by: (0, -40), steps: 8)
        s.up(1)
        #expect(run(s, [holdThenSwipe]) == ["hold-swipe recognized up"])
        // Without the hold, the swipe alone is not it.
        var quick = TouchScript()
        quick.down(1, at: (100, 150))
        quick.move(1, by: (0, -40), steps: 8)
        quick.up(1)
        var reasons: [String] = []
        #expect(run(quick, [holdThenSwipe]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons.contains { $0.hasPrefix("step 1 (long-press): a finger moved") })
    }

    @Test func aTapThenAPanBeginsChangesAndEndsAsTheSequence() {
        let tapThenPan = sequence("tap-drag", gesture("", .tap), then: gesture("", .pan))
        var s = TouchScript()
        tap(&s, id: 1)
        s.wait(150)
        s.down(2, at: (100, 100))
        s.move(2, by: (30, 0), steps: 6)
        s.up(2)
        let events = run(s, [tapThenPan])
        #expect(events.first == "tap-drag began right" && events.last == "tap-drag ended right")
        #expect(events.dropFirst().dropLast().allSatisfy { $0 == "tap-drag changed right" } && events.count > 3)
    }

    @Test func theNextStepMustComeWithinItsTime() {
        var swipe = gesture("", .swipe)
        swipe.withinMS = 200
        let tapThenSwipe = sequence("tap-swipe", gesture("", .tap), then: swipe)
        var late = TouchScript()
        tap(&late, id: 1)
        late.wait(300)
        late.down(2, at: (150, 100))
        late.move(2, by: (-40, 0), steps: 5)
        late.up(2)
        var reasons: [String] = []
        #expect(run(late, [tapThenSwipe]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons.contains("no step 2 (swipe) began within 200 ms of step 1 (tap)"))
        var inTime = TouchScript()
        tap(&inTime, id: 1)
        inTime.wait(100)
        inTime.down(2, at: (150, 100))
        inTime.move(2, by: (-40, 0), steps: 5)
        inTime.up(2)
        #expect(run(inTime, [tapThenSwipe]) == ["tap-swipe recognized left"])
    }

    @Test func aTapAfterAHoldWaitsForTheHeldFingerToLift() {
        let holdThenTap = sequence("hold-tap", gesture("", .longPress), then: gesture("", .tap))
        var s = TouchScript()
        s.down(1, at: (100, 100))
        s.hold(700)
        s.up(1)
        s.wait(100)
        tap(at: 140, &s, id: 2)
        #expect(run(s, [holdThenTap]) == ["hold-tap recognized"])
        // A second finger landing while the held one is still down is not the tap.
        var early = TouchScript()
        early.down(1, at: (100, 100))
        early.hold(700)
        early.down(2, at: (200, 100))
        early.up(1)
        early.up(2)
        var reasons: [String] = []
        #expect(run(early, [holdThenTap]) { reasons.append($0.reason) }.isEmpty)
        #expect(reasons.contains("a finger came down before step 1 (long-press)'s lifted; step 2 (tap) begins after"))
    }

    @Test func aSwipeThenATapTakesTheNextTouch() {
        let swipeThenTap = sequence("swipe-tap", gesture("", .swipe) { $0.direction = .right }, then: gesture("", .tap))
        var s = TouchScript()
        s.down(1, at: (100, 100))
        s.move(1, by: (40, 0), steps: 4)
        s.up(1)
        s.wait(100)
        tap(at: 140, &s, id: 2)
        #expect(run(s, [swipeThenTap]) == ["swipe-tap recognized"])
    }

    @Test func aTapWaitsForTheSequencesThatBeginWithItsTaps() {
        let single = gesture("single", .tap)
        let fiveThenHold = sequence("maintenance", gesture("", .tap) { $0.taps = 5 }, then: gesture("", .longPress))
        let fiveTaps = gesture("five", .tap) { $0.taps = 5 }
        var s = TouchScript()
        for id in 1...5 {
            tap(&s, id: id)
            s.wait(100)
        }
        s.down(6, at: (100, 100))
        s.hold(700)
        s.up(6)
        #expect(run(s, [single, fiveTaps, fiveThenHold]) == ["maintenance recognized"])
        // Five taps alone: the plain five taps once the sequence gave up on its hold.
        var five = TouchScript()
        for id in 1...5 {
            tap(&five, id: id)
            five.wait(100)
        }
        #expect(run(five, [single, fiveTaps, fiveThenHold]) == ["five recognized"])
    }

    @Test func aSequenceIsTakenBeforeItsLastStepAloneWhenBothDecideTogether() {
        let hold = gesture("hold", .longPress)
        let tapThenHold = sequence("tap-hold", gesture("", .tap), then: gesture("", .longPress))
        var s = TouchScript()
        tap(&s, id: 1)
        s.wait(100)
        s.down(2, at: (100, 100))
        s.hold(700)
        s.up(2)
        #expect(run(s, [hold, tapThenHold]) == ["tap-hold recognized"])
    }

    @Test func aCancelledTouchFailsTheSequenceAndItStartsOver() {
        let fiveThenHold = sequence("maintenance", gesture("", .tap) { $0.taps = 2 }, then: gesture("", .longPress))
        var s = TouchScript()
        tap(&s, id: 1)
        s.wait(100)
        s.down(2, at: (100, 100))
        s.cancelAll()
        s.wait(1000)
        tap(&s, id: 3)
        s.wait(100)
        tap(&s, id: 4)
        s.wait(100)
        s.down(5, at: (100, 100))
        s.hold(600)
        s.up(5)
        #expect(run(s, [fiveThenHold]) == ["maintenance recognized"])
    }
}
