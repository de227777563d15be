import Bindings
import Gestures
import Testing
import TouchCore

/// Steps on continuous gestures, wheel turns on pans, and the kernel events of keys,
/// clicks and wheels: all decided without a device.
@Suite struct StepsTests {
    static let up = KeySequence(written: ["VolumeUp"], chords: [[115]])
    static let down = KeySequence(written: ["VolumeDown"], chords: [[114]])

    func volume(_ type: GestureType, step: Double) -> BindingTable {
        var binding = Binding(gesture: "volume")
        binding.steps = Steps(size: step, increase: BoundActions(keys: Self.up), decrease: BoundActions(keys: Self.down))
        return BindingTable([binding])
    }

    func event(_ type: GestureType, _ phase: GesturePhase, rotation: Double? = nil, scale: Double? = nil,
               translation: Point? = nil) -> GestureEvent {
        GestureEvent(name: type == .pan ? "pan" : "volume", type: type, phase: phase, time: Timestamp(microseconds: 0),
                     fingers: 2, location: Point(x: 0.5, y: 0.5), scale: scale, rotation: rotation, translation: translation)
    }

    /// The keys pressed for a rotation through these angles (degrees), began at the first.
    func keysPressed(_ table: inout BindingTable, degrees: [Double]) -> [String] {
        var pressed: [String] = []
        for (i, angle) in degrees.enumerated() {
            let phase: GesturePhase = i == 0 ? .began : .changed
            for case .keys(_, let keys) in table.actions(for: event(.rotate, phase, rotation: angle * .pi / 180), device: "P") {
                pressed += keys.written
            }
        }
        return pressed
    }

    @Test func aQuarterTurnInStepsOfFifteenDegreesIsSixUpsAndBackSixDowns() {
        var table = volume(.rotate, step: 15)
        let forth = stride(from: 0.0, through: 90, by: 1).map { $0 }
        #expect(keysPressed(&table, degrees: forth) == Array(repeating: "VolumeUp", count: 6))
        var back = volume(.rotate, step: 15)
        _ = keysPressed(&back, degrees: forth)
        let returning = stride(from: 90.0, through: 0, by: -1).map { $0 }
        for (i, angle) in returning.enumerated() where i > 0 {
            let pressed = back.actions(for: event(.rotate, .changed, rotation: angle * .pi / 180), device: "P")
            if case .keys(_, let keys) = pressed.first { #expect(keys == Self.down) }
        }
        var counted = volume(.rotate, step: 15)
        let all = keysPressed(&counted, degrees: forth + returning.dropFirst())
        #expect(all.filter { $0 == "VolumeDown" }.count == 6 && all.filter { $0 == "VolumeUp" }.count == 6)
    }

    @Test func aFingerTremblingOnABoundaryFiresOnce() {
        var table = volume(.rotate, step: 15)
        let trembling = [0.0, 5, 10, 14, 15.5, 14, 16, 14.2, 15.8, 14, 16, 14.1]
        #expect(keysPressed(&table, degrees: trembling) == ["VolumeUp"])
        var counter = StepCounter(), fired: [Int] = []
        for position in [0.0, 1.0, 0.9, 1.05, 0.8, 0.74] { counter.cross(to: position, into: &fired) }
        #expect(fired == [1, -1])  // back down only a quarter step past the boundary
        fired.removeAll()
        counter = StepCounter()
        for position in [-0.5, -1.0, -0.9, -1.1, -0.76, -0.74] { counter.cross(to: position, into: &fired) }
        #expect(fired == [-1, 1])  // the same below where it began
    }

    @Test func aPinchStepsInFactorsAndAJumpFiresEveryStepInOrder() {
        var table = volume(.pinch, step: 1.1)
        let began = table.actions(for: event(.pinch, .began, scale: 1.0), device: "P")
        #expect(began.isEmpty)
        // From 1 to 1.1^3 at once: three steps, in order, counted in GESTURE_STEPS.
        var binding = Binding(gesture: "volume")
        binding.steps = Steps(size: 1.1, increase: BoundActions(command: "up"), decrease: BoundActions(command: "down"))
        var commands = BindingTable([binding])
        _ = commands.actions(for: event(.pinch, .began, scale: 1.0), device: "P")
        let jumped = commands.actions(for: event(.pinch, .changed, scale: 1.1 * 1.1 * 1.1 + 1e-9), device: "P")
        let steps = jumped.compactMap { action -> String? in
            guard case .run(let command) = action else { return nil }
            return command.environment.filter { $0.hasPrefix("GESTURE_STEP") }.joined(separator: " ")
        }
        #expect(steps == ["GESTURE_STEP=1 GESTURE_STEPS=1", "GESTURE_STEP=1 GESTURE_STEPS=2", "GESTURE_STEP=1 GESTURE_STEPS=3"])
        #expect(table.actions(for: event(.pinch, .changed, scale: 1 / 1.1 - 1e-9), device: "P").count == 1)
    }

    @Test func aPanStepsAlongTheAxisItSetOutOnAndANewPanStartsAgain() {
        var binding = Binding(gesture: "pan")
        binding.steps = Steps(size: 10, increase: BoundActions(keys: Self.up), decrease: BoundActions(keys: Self.down))
        var table = BindingTable([binding])
        func keys(_ phase: GesturePhase, _ x: Double, _ y: Double) -> [String] {
            table.actions(for: event(.pan, phase, translation: Point(x: x, y: y)), device: "P").flatMap { action -> [String] in
                if case .keys(_, let keys) = action { keys.written } else { [] }
            }
        }
        // Upwards (y negative) increases; sideways movement does not count.
        #expect(keys(.began, 0, -5) + keys(.changed, 30, -25) + keys(.changed, 0, -31) == ["VolumeUp", "VolumeUp", "VolumeUp"])
        _ = keys(.ended, 0, -31)
        #expect(keys(.began, 5, 0) + keys(.changed, 21, 2) == ["VolumeUp", "VolumeUp"])  // right increases
    }

    @Test func aScrollingPanTurnsTheWheelAsFarAsTheFingersMoved() {
        var binding = Binding(gesture: "pan")
        binding.scroll = Scroll(mmPerDetent: 8)
        var table = BindingTable([binding])
        var vertical = 0, horizontal = 0, notches = 0
        for i in 0...97 {
            let moved = Point(x: -Double(i) * 0.37, y: Double(i) * 0.83)  // down and left, in uneven steps
            for case .scroll(let turn) in table.actions(for: event(.pan, i == 0 ? .began : .changed, translation: moved), device: "P") {
                vertical += turn.vertical
                horizontal += turn.horizontal
                notches += turn.verticalDetents
            }
        }
        // 80.51 mm down at 8 mm a notch: 1207 units, 10 notches; fingers down scroll up (natural).
        #expect(vertical == Int(97 * 0.83 / 8 * 120))
        #expect(horizontal == Int(97 * 0.37 / 8 * 120))
        #expect(notches == 10)
    }

    @Test func keysAreChordsPressedInOrderAndReleasedInReverseEachWithItsReport() {
        var events: [InputEvent] = []
        VirtualInput.append(KeySequence(written: ["ctrl+alt+Right"], chords: [[29, 56, 106]]), to: &events)
        let changes = events.filter { $0.type == EventType.key }.map { "\($0.code):\($0.value)" }
        #expect(changes == ["29:1", "56:1", "106:1", "106:0", "56:0", "29:0"])
        #expect(events.count == 12 && events.enumerated().allSatisfy { $0.offset % 2 == 0 || $0.element.type == EventType.syn })
    }

    @Test func aClickMovesThePointerThereFirst() {
        var events: [InputEvent] = []
        VirtualInput.append(Click(.right), at: Point(x: 0.25, y: 2), to: &events)
        #expect(events.prefix(3).map(\.value) == [16_384, 65_535, 0])  // y clamped to the panel
        #expect(events.filter { $0.type == EventType.key }.map(\.value) == [1, 0])
    }
}
