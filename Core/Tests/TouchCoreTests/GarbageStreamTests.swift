import Testing
import TouchCore

/// Random event streams: whatever arrives, every touch goes began → moved/stationary… →
/// ended or cancelled, ids are never reused, and nothing stays down after `cancelAll`.
@Suite struct GarbageStreamTests {
    @Test(arguments: [Devices.slotted, Devices.contactReports, Devices.singleTouch])
    func randomStreamsKeepTouchLifecyclesValid(device: DeviceDescription) {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<50 {
            var decoder = TouchDecoder(description: device)!
            var phases: [Int: TouchPhase] = [:]
            var finished: Set<Int> = []
            func check(_ frame: TouchFrame) {
                var seen: Set<Int> = []
                for touch in frame.touches {
                    #expect(seen.insert(touch.id).inserted, "touch \(touch.id) twice in one frame")
                    #expect(!finished.contains(touch.id), "touch \(touch.id) reported after it ended")
                    let previous = phases[touch.id]
                    #expect((previous == nil) == (touch.phase == .began), "touch \(touch.id): \(String(describing: previous)) → \(touch.phase)")
                    if touch.phase.isDown { phases[touch.id] = touch.phase } else {
                        phases[touch.id] = nil
                        finished.insert(touch.id)
                    }
                }
            }
            var time: Int64 = 0
            for _ in 0..<2000 {
                time += Int64.random(in: -5...3000, using: &generator)
                let event = randomEvent(at: time, using: &generator)
                if decoder.process(event) { check(decoder.frame) }
            }
            if decoder.cancelAll(at: Timestamp(microseconds: time)) { check(decoder.frame) }
            #expect(phases.isEmpty, "touches left down: \(phases.keys.sorted())")
        }
    }

    private func randomEvent(at time: Int64, using g: inout SeededGenerator) -> InputEvent {
        let codes: [(UInt16, UInt16)] = [
            (EventType.syn, SynCode.report), (EventType.syn, SynCode.report), (EventType.syn, SynCode.mtReport),
            (EventType.syn, SynCode.dropped), (EventType.abs, AbsCode.mtSlot), (EventType.abs, AbsCode.mtTrackingID),
            (EventType.abs, AbsCode.mtPositionX), (EventType.abs, AbsCode.mtPositionY), (EventType.abs, AbsCode.x),
            (EventType.abs, AbsCode.y), (EventType.key, KeyCode.btnTouch), (EventType.key, KeyCode.btnTouch),
            (UInt16.random(in: 0...0x1f, using: &g), UInt16.random(in: 0...0x2ff, using: &g)),
        ]
        let (type, code) = codes.randomElement(using: &g)!
        let value: Int32 = switch Int.random(in: 0..<4, using: &g) {
        case 0: Int32.random(in: -2...12, using: &g)
        case 1: Int32.random(in: 0...1000, using: &g)
        case 2: -1
        default: Int32.random(in: Int32.min...Int32.max, using: &g)
        }
        return InputEvent(time: Timestamp(microseconds: time), type: type, code: code, value: value)
    }
}
