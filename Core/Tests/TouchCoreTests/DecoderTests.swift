import Testing
import TouchCore

@Suite struct ProtocolBTests {
    @Test func twoFingersDownMoveAndLift() {
        var s = EventScript()
        s.slot(0, id: 10, x: 100, y: 100); s.syn()
        s.slot(1, id: 11, x: 500, y: 500); s.syn()
        s.slot(0, x: 120); s.syn()
        s.slot(0, id: -1); s.syn()
        s.slot(1, id: -1); s.syn()
        #expect(decode(s, on: Devices.slotted) == [
            "1:began", "1:stationary 2:began", "1:moved 2:stationary", "1:ended 2:stationary", "2:ended",
        ])
    }

    @Test func locationsAreNormalizedAndKeepThePreviousOne() {
        var decoder = TouchDecoder(description: Devices.slotted)!
        var s = EventScript()
        s.slot(0, id: 1, x: 250, y: 500); s.syn()
        s.slot(0, x: 500); s.syn()
        var last: Touch?
        for e in s.events where decoder.process(e) { last = decoder.frame.touches.first }
        #expect(last?.location == Point(x: 0.5, y: 0.5))
        #expect(last?.previousLocation == Point(x: 0.25, y: 0.5))
        #expect(last?.timestamp == Timestamp(microseconds: 10_000))
    }

    @Test func slotZeroIsImpliedWithoutSlotEvents() {
        var s = EventScript()
        s.abs(AbsCode.mtTrackingID, 35); s.abs(AbsCode.mtPositionX, 513); s.syn()
        s.abs(AbsCode.mtPositionX, 519); s.syn()
        s.abs(AbsCode.mtTrackingID, -1); s.syn()
        #expect(decode(s, on: Devices.slotted) == ["1:began", "1:moved", "1:ended"])
    }

    @Test func reusedTrackingIdWithoutLiftEndsTheOldTouch() {
        var s = EventScript()
        s.slot(0, id: 1, x: 100, y: 100); s.syn()
        s.slot(0, id: 2, x: 900, y: 900); s.syn()
        s.slot(0, id: -1); s.syn()
        #expect(decode(s, on: Devices.slotted) == ["1:began", "1:ended 2:began", "2:ended"])
    }

    @Test func sameTrackingIdAgainIsNotANewTouch() {
        var s = EventScript()
        s.slot(0, id: 1, x: 100, y: 100); s.syn()
        s.slot(0, id: 1); s.syn()
        #expect(decode(s, on: Devices.slotted) == ["1:began", "1:stationary"])
    }

    @Test(arguments: [Int32(10), 50, -3, 1_000_000])
    func outOfRangeSlotsAreIgnored(slot: Int32) {
        var s = EventScript()
        s.slot(0, id: 1, x: 100, y: 100); s.syn()
        s.slot(slot, id: 7, x: 300, y: 300); s.syn()
        s.abs(AbsCode.mtTrackingID, -1); s.syn()  // still the bad slot: ignored
        s.slot(0, id: -1); s.syn()
        #expect(decode(s, on: Devices.slotted) == ["1:began", "1:stationary", "1:stationary", "1:ended"])
    }

    @Test func eventsWithoutSynReportLeaveNothingStuck() {
        var s = EventScript()
        s.slot(0, id: 1, x: 100, y: 100); s.syn()
        for i in 0..<1000 { s.slot(0, x: Int32(i)) }
        #expect(decode(s, on: Devices.slotted, cancelAtEnd: true) == ["1:began", "1:cancelled"])
    }

    @Test func synDroppedCancelsAndIgnoresContactsUntilTheyLift() {
        var s = EventScript()
        s.slot(0, id: 1, x: 100, y: 100); s.syn()
        s.slot(1, id: 2, x: 500, y: 500); s.syn()
        s.syn(SynCode.dropped)
        s.slot(0, x: 999); s.slot(7, id: 99)  // incomplete: discarded
        s.syn()
        s.slot(0, x: 130); s.syn()              // the same finger, still down: ignored
        s.slot(0, id: -1); s.syn()
        s.slot(0, id: 3, x: 200, y: 200); s.syn()  // a new finger
        #expect(decode(s, on: Devices.slotted, cancelAtEnd: true) == [
            "1:began", "1:stationary 2:began", "1:cancelled 2:cancelled", "3:began", "3:cancelled",
        ])
    }
}

@Suite struct ProtocolATests {
    @Test func anonymousContactsAreMatchedByDistance() {
        var decoder = TouchDecoder(description: Devices.contactReports)!
        var s = EventScript()
        s.contact(x: 100, y: 100); s.contact(x: 800, y: 800); s.syn()
        s.contact(x: 810, y: 790); s.contact(x: 110, y: 105); s.syn()  // reported in the other order
        s.contact(x: 820, y: 780); s.syn()                              // the first finger lifted
        s.syn(SynCode.mtReport); s.syn()                                // none left
        var frames: [[Touch]] = []
        for e in s.events where decoder.process(e) { frames.append(decoder.frame.touches) }
        #expect(frames.map { $0.map { "\($0.id):\($0.phase.rawValue)" } } == [
            ["1:began", "2:began"], ["1:moved", "2:moved"], ["1:ended", "2:moved"], ["2:ended"],
        ])
        #expect(frames[1].first { $0.id == 1 }?.location == Point(x: 0.11, y: 0.105))
        #expect(frames[1].first { $0.id == 2 }?.location == Point(x: 0.81, y: 0.79))
    }

    @Test func trackingIdsDecideWhenTheDeviceSendsThem() {
        var s = EventScript()
        s.contact(x: 100, y: 100, id: 5); s.contact(x: 120, y: 120, id: 6); s.syn()
        // Ids say the fingers crossed; distance alone would say otherwise.
        s.contact(x: 121, y: 121, id: 5); s.syn()
        s.syn()
        #expect(decode(s, on: Devices.contactReports) == ["1:began 2:began", "1:moved 2:ended", "1:ended"])
    }

    @Test func aLiftAndANewFingerInOneFrame() {
        var s = EventScript()
        s.contact(x: 100, y: 100, id: 1); s.syn()
        s.contact(x: 900, y: 900, id: 2); s.syn()
        s.syn()
        #expect(decode(s, on: Devices.contactReports) == ["1:began", "1:ended 2:began", "2:ended"])
    }

    @Test func contactDataWithoutMtReportStillCounts() {
        var s = EventScript()
        s.abs(AbsCode.mtPositionX, 100); s.abs(AbsCode.mtPositionY, 100); s.syn()
        s.syn()
        #expect(decode(s, on: Devices.contactReports) == ["1:began", "1:ended"])
    }

    @Test func tenFingers() {
        var s = EventScript()
        for f in 0..<10 { s.contact(x: Int32(f * 100), y: 500) }
        s.syn()
        for f in 0..<10 { s.contact(x: Int32(f * 100 + 5), y: 510) }
        s.syn()
        s.syn()
        let frames = decode(s, on: Devices.contactReports)
        #expect(frames.count == 3)
        #expect(frames[0].split(separator: " ").allSatisfy { $0.hasSuffix("began") })
        #expect(frames[1].split(separator: " ").count == 10 && !frames[1].contains("began"))
        #expect(frames[2].split(separator: " ").filter { $0.hasSuffix("ended") }.count == 10)
    }

    @Test func synDroppedIgnoresContactsUntilAllLift() {
        var s = EventScript()
        s.contact(x: 100, y: 100); s.syn()
        s.syn(SynCode.dropped); s.contact(x: 5, y: 5); s.syn()
        s.contact(x: 110, y: 110); s.syn()
        s.syn()
        s.contact(x: 300, y: 300); s.syn()
        #expect(decode(s, on: Devices.contactReports, cancelAtEnd: true) == ["1:began", "1:cancelled", "2:began", "2:cancelled"])
    }

    @Test func contactsReportedBeforeASynDroppedAreDroppedWithIt() {
        var s = EventScript()
        s.contact(x: 100, y: 100); s.syn()
        s.contact(x: 120, y: 100); s.syn(SynCode.dropped); s.syn()  // a frame cut by the drop
        s.syn()                                                     // all lifted
        s.contact(x: 300, y: 300); s.syn()                          // a new finger
        #expect(decode(s, on: Devices.contactReports) == ["1:began", "1:cancelled", "2:began"])
    }
}

@Suite struct SingleTouchTests {
    @Test func btnTouchWithAbsolutePositions() {
        var s = EventScript()
        s.abs(AbsCode.x, 100); s.abs(AbsCode.y, 200); s.key(KeyCode.btnTouch, 1); s.syn()
        s.abs(AbsCode.x, 150); s.syn()
        s.key(KeyCode.btnTouch, 0); s.syn()
        s.abs(AbsCode.x, 700); s.key(KeyCode.btnTouch, 1); s.syn()
        s.key(KeyCode.btnTouch, 0); s.syn()
        #expect(decode(s, on: Devices.singleTouch) == ["1:began", "1:moved", "1:ended", "2:began", "2:ended"])
    }

    @Test func multitouchEventsOnASingleTouchPanelAreIgnored() {
        var s = EventScript()
        s.slot(0, id: 1, x: 5, y: 5); s.syn()
        #expect(decode(s, on: Devices.singleTouch).isEmpty)
    }
}

@Suite struct GeometryTests {
    @Test func millimetresFromResolution() {
        let g = DeviceGeometry(xAxis: AbsoluteAxis(code: 0x35, minimum: 0, maximum: 3900, resolution: 13),
                               yAxis: AbsoluteAxis(code: 0x36, minimum: 0, maximum: 2600, resolution: 13))
        #expect(g.knownSize == SizeMM(width: 300, height: 200))
        #expect(g.millimetres(Point(x: 0.5, y: 0.5)) == Point(x: 150, y: 100))
    }

    @Test func unknownResolutionAssumesATwelveInchPanelOrTakesTheOverride() {
        let x = AbsoluteAxis(code: 0x35, minimum: 0, maximum: 800), y = AbsoluteAxis(code: 0x36, minimum: 0, maximum: 600)
        let assumed = DeviceGeometry(xAxis: x, yAxis: y)
        #expect(assumed.knownSize == nil)
        #expect(abs(assumed.size.width - 244) < 0.01 && abs(assumed.size.height - 183) < 0.01)
        let given = DeviceGeometry(xAxis: x, yAxis: y, sizeOverride: SizeMM(width: 154, height: 86))
        #expect(given.size == SizeMM(width: 154, height: 86))
    }

    @Test func positionsBeyondTheRangeAreClamped() {
        let g = DeviceGeometry(Devices.slotted)!
        #expect(g.normalize(x: -20, y: 1200) == Point(x: 0, y: 1))
        #expect(g.normalize(x: 250, y: 750) == Point(x: 0.25, y: 0.75))
    }

    @Test func protocolFromTheAxes() {
        #expect(Devices.slotted.touchProtocol == .slotted(slotCount: 10))
        #expect(Devices.contactReports.touchProtocol == .contactReports)
        #expect(Devices.singleTouch.touchProtocol == .singleTouch)
        #expect(DeviceDescription(name: "keyboard").touchProtocol == nil)
    }
}

@Suite struct OrientationTests {
    let x = AbsoluteAxis(code: 0x35, minimum: 0, maximum: 400, resolution: 2)
    let y = AbsoluteAxis(code: 0x36, minimum: 0, maximum: 200, resolution: 2)

    @Test(arguments: [
        (Orientation(), Point(x: 0.25, y: 0.25)),
        (Orientation(rotation: .quarter), Point(x: 0.75, y: 0.25)),
        (Orientation(rotation: .half), Point(x: 0.75, y: 0.75)),
        (Orientation(rotation: .threeQuarters), Point(x: 0.25, y: 0.75)),
        (Orientation(invertY: true), Point(x: 0.25, y: 0.75)),
        (Orientation(rotation: .quarter, invertX: true), Point(x: 0.75, y: 0.75)),
    ])
    func mountingTurnsAndFlipsPositions(orientation: Orientation, expected: Point) {
        let g = DeviceGeometry(xAxis: x, yAxis: y, orientation: orientation)
        #expect(g.normalize(x: 100, y: 50) == expected)
        #expect(g.size == (!orientation.rotation.swapsAxes ? SizeMM(width: 200, height: 100) : SizeMM(width: 100, height: 200)))
    }
}
