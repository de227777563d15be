import Bindings
import Gestures
import Testing
import TouchCore

/// What a command's environment says of a gesture, and what a session agent rebuilds of
/// it to emit the gesture's signal on its session bus.
@Suite struct GestureEnvironmentTests {
    @Test func anAgentRebuildsTheEventItsVariablesSay() throws {
        var pinch = GestureEvent(name: "zoom", type: .pinch, phase: .changed, time: Timestamp(seconds: 3), fingers: 2,
                                 location: Point(x: 0.25, y: 0.75), scale: 1.5, velocity: 0.5)
        pinch.tool = .pen
        let assignments = GestureEnvironment.assignments(pinch, device: "Panel", step: StepCount(delta: -1, net: 2))
        #expect(assignments.contains("GESTURE_STEP=-1") && assignments.contains("GESTURE_STEPS=2"))
        let (event, device, step) = try #require(GestureEnvironment.event(from: assignments))
        var expected = pinch
        expected.time = Timestamp(microseconds: 0)
        #expect(event == expected)
        #expect(device == "Panel")
        #expect(step == StepCount(delta: -1, net: 2))
        let swipe = GestureEvent(name: "s", type: .swipe, phase: .recognized, time: Timestamp(seconds: 1), fingers: 3,
                                 location: Point(x: 0.5, y: 0.5), direction: .right)
        #expect(GestureEnvironment.event(from: GestureEnvironment.assignments(swipe, device: "D"))?.event.direction == .right)
        #expect(GestureEnvironment.event(from: GestureEnvironment.assignments(swipe, device: "D"))?.step == nil)
    }

    @Test func whatIsNoGesturesVariablesIsNoEvent() {
        #expect(GestureEnvironment.event(from: ["PATH=/bin"]) == nil)
        #expect(GestureEnvironment.event(from: ["GESTURE_NAME=x", "GESTURE_TYPE=nonsense", "GESTURE_PHASE=ended", "GESTURE_FINGERS=1",
                                                "GESTURE_X=0", "GESTURE_Y=0", "GESTURE_DEVICE=d"]) == nil)
        #expect(GestureEnvironment.event(from: ["GESTURE_NAME=x", "GESTURE_TYPE=tap", "GESTURE_PHASE=recognized", "GESTURE_FINGERS=1",
                                                "GESTURE_X=nan", "GESTURE_Y=0", "GESTURE_DEVICE=d"]) == nil)
    }
}
