@testable import Delivery
import Testing
import TouchCore

/// Events as (type, code, value), the way they read in evemu.
func triples(_ events: [InputEvent]) -> [[Int]] { events.map { [Int($0.type), Int($0.code), Int($0.value)] } }

func event(_ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
    InputEvent(time: Timestamp(microseconds: 0), type: type, code: code, value: value)
}

let syn = [0, 0, 0]

struct TwinFeedTests {
    /// A panel with `slots` slots, and a finger landing in slot 1 at (100, 200).
    func landing(slots: Int = 4) -> PanelState {
        var panel = PanelState(slotCount: slots)
        for e in [event(3, 0x2f, 1), event(3, 0x39, 7), event(3, 0x35, 100), event(3, 0x36, 200), event(1, 0x14a, 1)] {
            _ = panel.apply(e)
        }
        return panel
    }

    @Test func writesOnlyTheDifferenceAsTheKernelWould() {
        let panel = landing()
        var feed = TwinFeed(panel: PanelState(slotCount: 4), cancelsAsPalm: true)
        var out: [InputEvent] = []
        feed.write(panel, into: &out)
        #expect(triples(out) == [[3, 0x2f, 1], [3, 0x39, 7], [3, 0x35, 100], [3, 0x36, 200], [1, 0x14a, 1], syn])
        out.removeAll()
        feed.write(panel, into: &out)
        #expect(out.isEmpty, "nothing changed, nothing written")
        var moved = panel
        _ = moved.apply(event(3, 0x36, 210))
        feed.write(moved, extras: [event(4, 5, 1234)], into: &out)
        #expect(triples(out) == [[3, 0x36, 210], [4, 5, 1234], syn], "the slot is still current; MSC_TIMESTAMP goes along")
    }

    @Test func aTouchTheTwinNeverSawIsWrittenWholeWhenItIsDelivered() {
        // Held or dropped frames in between: the twin still ends up where the panel is.
        var panel = landing()
        var feed = TwinFeed(panel: PanelState(slotCount: 4), cancelsAsPalm: true)
        _ = panel.apply(event(3, 0x35, 150))
        var out: [InputEvent] = []
        feed.write(panel, into: &out)
        #expect(triples(out).contains([3, 0x35, 150]))
        #expect(feed.twin == panel)
    }

    @Test func cancellingMakesEachTouchAPalmThenLiftsIt() {
        var feed = TwinFeed(panel: PanelState(slotCount: 4), cancelsAsPalm: true)
        var out: [InputEvent] = []
        feed.write(landing(), into: &out)
        out.removeAll()
        feed.cancelTouches(into: &out)
        #expect(triples(out) == [[3, 0x37, 2], syn, [3, 0x37, 0], [3, 0x39, -1], [1, 0x14a, 0], syn])
        #expect(feed.touchCount == 0)
    }

    @Test func withoutToolTypeACancelIsALift() {
        var feed = TwinFeed(panel: PanelState(slotCount: 4), cancelsAsPalm: false)
        var out: [InputEvent] = []
        feed.write(landing(), into: &out)
        out.removeAll()
        feed.cancelTouches(into: &out)
        #expect(triples(out) == [[3, 0x39, -1], [1, 0x14a, 0], syn])
    }

    @Test func withheldTheTwinShowsNoTouchAndNothingMoved() {
        var feed = TwinFeed(panel: PanelState(slotCount: 4), cancelsAsPalm: true)
        var target = PanelState(slotCount: 4)
        var panel = landing()
        _ = panel.apply(event(3, 0x00, 500))  // ABS_X moves with the touch
        feed.withoutTouches(into: &target)
        var out: [InputEvent] = []
        feed.write(target, into: &out)
        #expect(out.isEmpty)
    }

    @Test func slotsOutOfRangeAreIgnoredAsByTheKernel() {
        var panel = PanelState(slotCount: 2)
        _ = panel.apply(event(3, 0x2f, 5))
        _ = panel.apply(event(3, 0x39, 3))
        #expect(panel.currentSlot == 0)
        #expect(panel.isTouching(slot: 0), "the values went to the slot still current")
        let isState = panel.apply(event(4, 5, 1))
        #expect(!isState, "EV_MSC is not state")
    }

    @Test func heldFramesComeBackInOrderWithTheirExtras() {
        var held = HeldFrames(capacity: 2, slotCount: 4)
        var panel = landing()
        held.push(panel, extras: [event(4, 5, 1)], at: Timestamp(microseconds: 10))
        _ = panel.apply(event(3, 0x35, 120))
        held.push(panel, extras: [], at: Timestamp(microseconds: 20))
        #expect(held.isFull)
        #expect(held.oldestTime == Timestamp(microseconds: 10))
        var state = PanelState(slotCount: 4)
        #expect(triples(Array(held.popOldest(into: &state))) == [[4, 5, 1]])
        #expect(state[1, 0x35] == 100)
        _ = held.popOldest(into: &state)
        #expect(state[1, 0x35] == 120)
        #expect(held.isEmpty)
    }
}
