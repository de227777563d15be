import Bindings
@testable import Gestures
import Testing
import TouchCore

/// The virtual touchpad's fingers: where they land, how they move, who has them.
@Suite struct TouchpadFingersTests {
    let swipe = GestureHolder(panel: "/dev/input/event3", binding: "workspaces")
    let other = GestureHolder(panel: "/dev/input/event4", binding: "zoom")

    /// Each frame's first finger's (x, y) in mm, and the fingers' count at its touch-down.
    func frames(_ events: [InputEvent]) -> [(x: Double, y: Double)] {
        var frames: [(Double, Double)] = [], x = 0.0
        for event in events where event.type == EventType.abs {
            if event.code == AbsCode.x { x = Double(event.value) / Double(VirtualTouchpad.unitsPerMM) }
            if event.code == AbsCode.y { frames.append((x, Double(event.value) / Double(VirtualTouchpad.unitsPerMM))) }
        }
        return frames
    }

    func tracks(moved dx: Double, fingers: Int = 3) -> [TouchTrack] {
        (0..<fingers).map { i in TouchTrack(start: Point(x: 50 + 15 * Double(i), y: 80), now: Point(x: 50 + 15 * Double(i) + dx, y: 80)) }
    }

    func at(_ ms: Double) -> Timestamp { Timestamp(microseconds: 0) + ms }

    @Test func fingersLandAboutTheCentreAndMakeUpTheThresholdAMillimetreAFrame() {
        var pad = TouchpadFingers()
        var events: [InputEvent] = []
        #expect(pad.begin(tracks(moved: 3), by: swipe, at: at(0), into: &events))
        // Landed where they landed about their centroid (65 mm): the first finger 15 mm left of the centre.
        let centre = (x: VirtualTouchpad.widthMM / 2, y: VirtualTouchpad.heightMM / 2)
        #expect(events.contains { $0.type == EventType.key && $0.code == VirtualTouchpad.toolCodes[2] && $0.value == 1 })
        var xs = frames(events).map(\.x)
        for (ms, dx) in [(10.0, 4.0), (20, 5), (30, 6), (40, 7), (50, 8), (60, 9)] {
            events = []
            pad.move(tracks(moved: dx), by: swipe, at: at(ms), into: &events)
            xs += frames(events).map(\.x)
        }
        // Down where they landed; the first two moves at the fingers' own pace, then the
        // 3 mm owed made up a millimetre a frame on top of it: at 9 mm it has caught up.
        #expect(xs == [0.0, 1, 2, 4, 6, 8, 9].map { centre.x - 15 + $0 })
        #expect(frames(events).last?.y == centre.y)
    }

    @Test func framesComeAtATouchpadsPaceTheLatestMovementInEach() {
        var pad = TouchpadFingers()
        var events: [InputEvent] = []
        #expect(pad.begin(tracks(moved: 0), by: swipe, at: at(0), into: &events))
        #expect(pad.due == nil)
        events = []
        pad.move(tracks(moved: 1), by: swipe, at: at(1), into: &events)
        pad.move(tracks(moved: 2), by: swipe, at: at(2), into: &events)
        #expect(events.isEmpty && pad.due == at(7))
        pad.advance(to: at(7), into: &events)
        #expect(frames(events).map(\.x) == [VirtualTouchpad.widthMM / 2 - 15 + 2])
        #expect(pad.due == nil)
        events = []
        pad.move(tracks(moved: 3), by: swipe, at: at(8), into: &events)
        pad.end(by: swipe, into: &events)
        // The movement of 1 ms after the last frame is left out: written with the lift, a jump.
        #expect(frames(events).isEmpty && pad.holder == nil && pad.due == nil)
    }

    @Test func oneGestureAtATimeAndTheEndLiftsEveryFinger() {
        var pad = TouchpadFingers()
        var events: [InputEvent] = []
        #expect(pad.begin(tracks(moved: 0), by: swipe, at: at(0), into: &events))
        events = []
        #expect(!pad.begin(tracks(moved: 0, fingers: 2), by: other, at: at(1), into: &events))
        pad.move(tracks(moved: 4, fingers: 2), by: other, at: at(20), into: &events)
        pad.end(by: other, into: &events)
        #expect(events.isEmpty)
        pad.end(by: swipe, into: &events)
        #expect(events.filter { $0.code == AbsCode.mtTrackingID }.map(\.value) == [-1, -1, -1])
        #expect(events.contains { $0.type == EventType.key && $0.code == VirtualTouchpad.toolCodes[2] && $0.value == 0 })
        #expect(pad.holder == nil)
        #expect(!pad.begin(tracks(moved: 0, fingers: 6), by: other, at: at(30), into: &events))
    }
}
