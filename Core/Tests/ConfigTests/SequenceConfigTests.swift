import Config
import Gestures
import Testing

/// `then`: the steps after a gesture's first, each an inline table of its type and shape,
/// the binding on the gesture's own table for the type it ends as.
@Suite struct SequenceConfigTests {
    @Test func stepsAreReadInOrderAndTheGestureIsItsLastStep() throws {
        let config = try parse("""
            [[gesture]]
            name = "drag"
            type = "tap"
            taps = 2
            then = { type = "long-press", min_duration_ms = 300, within_ms = 500, then = { type = "pan", fingers = 1 } }
            scroll = true
            """)
        let drag = try #require(config.gestures.first)
        #expect(drag.type == .pan && drag.name == "drag" && drag.fingers == 1)
        #expect(drag.earlierSteps.map(\.type) == [.tap, .longPress] && drag.earlierSteps[0].taps == 2)
        #expect(drag.earlierSteps[1].minDurationMS == 300 && drag.earlierSteps[1].withinMS == 500 && drag.withinMS == 350)
        #expect(config.bindings.first?.scroll != nil)
    }

    @Test func aStepThatCannotEndOrLeadIsRefusedAtItsLine() {
        #expect(errors("[[gesture]]\nname = \"p\"\ntype = \"pan\"\nthen = { type = \"tap\" }\n") == [
            "test.toml:4: error: gesture[1].then: a pan lasts until its fingers lift; then follows a tap, long-press, swipe, edge-swipe, checkmark or chevron"])
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\nthen = \"long-press\"\n") == [
            "test.toml:4: error: gesture[1].then: expected a table, like { type = \"long-press\" }, found a string"])
        let five = "then = { type = \"tap\", then = { type = \"tap\", then = { type = \"tap\", then = { type = \"tap\" } } } }"
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\n\(five)\n") == [
            "test.toml:4: error: gesture[1].then.then: a sequence has at most 4 steps"])
    }

    @Test func eachSettingGoesWhereItsStepIs() {
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\nmin_duration_ms = 800\nthen = { type = \"long-press\" }\n") == [
            "test.toml:4: error: gesture[1].min_duration_ms: this sequence's first step, a tap gesture, has no min_duration_ms; it takes fingers, taps, max_movement_mm, max_duration_ms, max_interval_ms"])
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\nthen = { type = \"pan\", scroll = true }\n") == [
            "test.toml:4: error: gesture[1].then.scroll: a step of then (pan) has no scroll; it takes fingers, angle, min_distance_mm, resume_ms"])
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\nthen = { type = \"swipe\", within_ms = 0 }\n") == [
            "test.toml:4: error: gesture[1].then.within_ms: expected a number more than 0 and at most 60000 (a minute), found 0"])
    }

    @Test func aSequenceAndItsLastStepAloneMayShareAnAngle() throws {
        _ = try parse("""
            [[gesture]]
            name = "flick"
            type = "swipe"
            angle = [15, 45]

            [[gesture]]
            name = "tap-flick"
            type = "tap"
            then = { type = "swipe", angle = [15, 45] }
            """)
    }
}
