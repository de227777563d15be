import Testing
import TouchCore

/// A decoder that starts while the kernel already holds touch state (start, restart,
/// hotplug) begins from it: the kernel resends nothing unchanged.
@Suite struct KernelStateTests {
    func frames(_ script: EventScript, device: DeviceDescription, seed: KernelTouchState) -> [TouchFrame] {
        var decoder = TouchDecoder(description: device)!
        decoder.seed(seed)
        return script.events.compactMap { decoder.process($0) ? decoder.frame : nil }
    }

    @Test func aFingerLandingWhereTheSlotsLastOneLiftedIsThereNotAtZero() throws {
        // Slot 2 is current and last held a finger at (800, 400); the kernel sends only the new tracking id.
        let seed = KernelTouchState(currentSlot: 2, contacts: (0..<10).map {
            KernelTouchState.Contact(trackingID: -1, x: $0 == 2 ? 800 : 0, y: $0 == 2 ? 400 : 0)
        })
        var s = EventScript()
        s.abs(AbsCode.mtTrackingID, 7); s.syn()
        s.abs(AbsCode.mtTrackingID, -1); s.syn()
        let touches = frames(s, device: Devices.slotted, seed: seed).flatMap(\.touches)
        #expect(touches.map(\.phase) == [.began, .ended])
        #expect(touches.first?.location == Point(x: 0.8, y: 0.4))
    }

    @Test func fingersAlreadyDownAreIgnoredUntilTheyLift() {
        var contacts = Array(repeating: KernelTouchState.Contact(trackingID: -1, x: 0, y: 0), count: 10)
        contacts[0] = KernelTouchState.Contact(trackingID: 3, x: 100, y: 100)
        var s = EventScript()
        s.slot(0, x: 150); s.syn()                 // the finger that was down moves: not reported
        s.slot(1, id: 4, x: 500, y: 500); s.syn()  // a new finger is
        s.slot(0, id: -1); s.syn()
        s.slot(1, id: -1); s.syn()
        s.slot(0, id: 5, x: 200, y: 200); s.syn()  // slot 0 again, a new touch
        #expect(frames(s, device: Devices.slotted, seed: KernelTouchState(currentSlot: 0, contacts: contacts)).map(summary)
            == ["1:began", "1:stationary", "1:ended", "2:began"])
    }

    @Test func aSingleTouchPanelHeldDownAtStartIsIgnoredUntilItLifts() {
        var s = EventScript()
        s.abs(AbsCode.x, 600); s.syn()
        s.key(KeyCode.btnTouch, 0); s.syn()
        s.key(KeyCode.btnTouch, 1); s.syn()
        s.key(KeyCode.btnTouch, 0); s.syn()
        let seed = KernelTouchState(currentSlot: 0, contacts: [KernelTouchState.Contact(trackingID: 0, x: 300, y: 300)])
        let touches = frames(s, device: Devices.singleTouch, seed: seed).flatMap(\.touches)
        #expect(touches.map(\.phase) == [.began, .ended])
        #expect(touches.first?.location == Point(x: 0.6, y: 0.3))
    }
}
