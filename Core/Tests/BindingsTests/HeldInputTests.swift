import Bindings
import Testing
import TouchCore

/// What gestured's keyboard and pointer hold, and for whom.
@Suite struct HeldInputTests {
    let alt: UInt16 = 56, superKey: UInt16 = 125, tab: UInt16 = 15, shift: UInt16 = 42
    let drag = GestureHolder(panel: "/dev/input/event3", binding: "drag")
    let switcher = GestureHolder(panel: "/dev/input/event4", binding: "switcher")

    /// "type:code=value" for each event but the SYN_REPORTs.
    func written(_ events: [InputEvent]) -> [String] {
        events.filter { $0.type != EventType.syn }.map { "\($0.type):\($0.code)=\($0.value)" }
    }

    @Test func aDragPressesKeysThenTheButtonWhereTheFingersAreAndLetsGoInReverse() {
        var held = HeldInput()
        var keyboard: [InputEvent] = [], pointer: [InputEvent] = []
        held.press(Hold(written: "super", keys: [superKey], button: .left, pointer: true), by: drag, at: Point(x: 0.5, y: 0.25),
                   keyboard: &keyboard, pointer: &pointer)
        #expect(written(keyboard) == ["1:125=1"])
        #expect(written(pointer) == ["3:0=32768", "3:1=16384", "1:272=1"])
        pointer = []
        held.follow(drag, to: Point(x: 1, y: 1), pointer: &pointer)
        #expect(written(pointer) == ["3:0=65535", "3:1=65535"])
        keyboard = []
        pointer = []
        held.release(drag, keyboard: &keyboard, pointer: &pointer)
        #expect(written(pointer) == ["1:272=0"])
        #expect(written(keyboard) == ["1:125=0"])
        #expect(held.isEmpty)
    }

    @Test func aKeyTwoGesturesHoldGoesUpWithTheLast() {
        var held = HeldInput()
        var keyboard: [InputEvent] = [], pointer: [InputEvent] = []
        held.press(Hold(written: "alt", keys: [alt], pointer: false), by: drag, at: .zero, keyboard: &keyboard, pointer: &pointer)
        held.press(Hold(written: "alt+shift", keys: [alt, shift], pointer: false), by: switcher, at: .zero, keyboard: &keyboard, pointer: &pointer)
        #expect(written(keyboard) == ["1:56=1", "1:42=1"])
        keyboard = []
        held.release(drag, keyboard: &keyboard, pointer: &pointer)
        #expect(written(keyboard).isEmpty)
        #expect(held.keys == [alt, shift])
        held.release(switcher, keyboard: &keyboard, pointer: &pointer)
        #expect(written(keyboard) == ["1:42=0", "1:56=0"])
        #expect(pointer.isEmpty)
    }

    @Test func aStepsChordLeavesTheHeldKeysDown() {
        var events: [InputEvent] = []
        VirtualInput.append(KeySequence(written: ["alt+shift+Tab"], chords: [[alt, shift, tab]]), holding: [alt], to: &events)
        #expect(written(events) == ["1:42=1", "1:15=1", "1:15=0", "1:42=0"])
    }

    @Test func aPanelGoneOrTheDaemonStoppingReleasesWhatIsHeld() {
        var held = HeldInput()
        var keyboard: [InputEvent] = [], pointer: [InputEvent] = []
        held.press(Hold(written: "super", keys: [superKey], button: .left, pointer: true), by: drag, at: .zero, keyboard: &keyboard, pointer: &pointer)
        held.press(Hold(written: "alt", keys: [alt], pointer: false), by: switcher, at: .zero, keyboard: &keyboard, pointer: &pointer)
        keyboard = []
        pointer = []
        #expect(held.release(panel: "/dev/input/event4", keyboard: &keyboard, pointer: &pointer) == [switcher])
        #expect(written(keyboard) == ["1:56=0"])
        keyboard = []
        #expect(held.release(panel: nil, keyboard: &keyboard, pointer: &pointer) == [drag])
        #expect(written(keyboard) == ["1:125=0"] && written(pointer) == ["1:272=0"])
        #expect(held.isEmpty)
    }
}
