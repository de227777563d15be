import Testing
import TouchCore

/// Solving libinput's calibration matrix from touches on four targets.
@Suite struct CalibrationTests {
    static let targets = [Point(x: 0.125, y: 0.125), Point(x: 0.875, y: 0.125), Point(x: 0.125, y: 0.875), Point(x: 0.875, y: 0.875)]

    func close(_ m: CalibrationMatrix, _ n: CalibrationMatrix, within tolerance: Double) -> Bool {
        zip([m.a, m.b, m.c, m.d, m.e, m.f], [n.a, n.b, n.c, n.d, n.e, n.f]).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test func touchesWhereTheTargetsAreGiveTheIdentity() throws {
        let solved = try CalibrationMatrix.solving(targets: Self.targets, touches: Self.targets)
        #expect(close(solved, .identity, within: 1e-9), "\(solved)")
    }

    @Test func aSkewedPanelGivesTheInverseOfItsSkew() throws {
        // The panel reports each touch skewed, shifted and scaled; fingers land a little off.
        let skew = CalibrationMatrix(1.06, 0.04, -0.03, -0.05, 0.93, 0.04)
        let jitter = [Point(x: 0.002, y: -0.001), Point(x: -0.001, y: 0.002), Point(x: 0.001, y: 0.001), Point(x: -0.002, y: -0.002)]
        let touches = zip(Self.targets, jitter).map { skew.apply($0) + $1 }
        let solved = try CalibrationMatrix.solving(targets: Self.targets, touches: touches)
        let expected = try #require(skew.inverse)
        #expect(close(solved, expected, within: 0.02), "\(solved) against \(expected)")
        for (touch, target) in zip(touches, Self.targets) { #expect(solved.apply(touch).distance(to: target) < 0.005) }
    }

    @Test func aPanelMountedUpsideDownIsTurnedBack() throws {
        let touches = Self.targets.map { Point(x: 1 - $0.x, y: 1 - $0.y) }
        let solved = try CalibrationMatrix.solving(targets: Self.targets, touches: touches)
        #expect(close(solved, CalibrationMatrix(-1, 0, 1, 0, -1, 1), within: 1e-9), "\(solved)")
    }

    @Test func degenerateTouchesAreRefused() {
        let one = Point(x: 0.5, y: 0.5)
        #expect(throws: CalibrationRefusal.touchesInALine) {
            try CalibrationMatrix.solving(targets: Self.targets, touches: [one, one, one, one])
        }
        #expect(throws: CalibrationRefusal.touchesInALine) {
            try CalibrationMatrix.solving(targets: Self.targets, touches: (0..<4).map { Point(x: 0.2 * Double($0), y: 0.1 + 0.2 * Double($0)) })
        }
        #expect(throws: CalibrationRefusal.tooFewTouches(2)) {
            try CalibrationMatrix.solving(targets: Array(Self.targets.prefix(2)), touches: Array(Self.targets.prefix(2)))
        }
        var wild = Self.targets
        wild[3] = Point(x: 0.6, y: 0.95)
        #expect {
            try CalibrationMatrix.solving(targets: Self.targets, touches: wild)
        } throws: { error in
            guard case .touchesDisagree(let worst) = error as? CalibrationRefusal else { return false }
            return worst > CalibrationMatrix.mostDisagreement
        }
        // Touches crowded in a corner: the panel would be stretched eightfold.
        let crowded = Self.targets.map { Point(x: 0.45 + $0.x / 10, y: 0.45 + $0.y / 10) }
        #expect {
            try CalibrationMatrix.solving(targets: Self.targets, touches: crowded)
        } throws: { error in
            if case .implausibleScale = error as? CalibrationRefusal { return true }
            return false
        }
    }

    @Test func gesturedPutsATouchWhereLibinputDoes() {
        var panel = DeviceDescription(name: "Panel", axes: [
            AbsoluteAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 1000),
            AbsoluteAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 1000),
        ])
        let plain = DeviceGeometry(panel)!
        #expect(plain.normalize(x: 250, y: 500) == Point(x: 0.25, y: 0.5))
        // Upside down by its calibration: turned back before anything is measured, and
        // clamped to the screen where the matrix puts a touch beyond it.
        panel.calibration = CalibrationMatrix(-1, 0, 1, 0, -1, 1)
        let calibrated = DeviceGeometry(panel)!
        #expect(calibrated.normalize(x: 250, y: 500) == Point(x: 0.75, y: 0.5))
        panel.calibration = CalibrationMatrix(2, 0, 0, 0, 1, 0)
        #expect(DeviceGeometry(panel)!.normalize(x: 900, y: 100) == Point(x: 1, y: 0.1))
        // A matrix of huge numbers that overflows is not applied: the panel's own place.
        panel.calibration = CalibrationMatrix(udev: "1e308 1e308 1e308 0 1 0")
        #expect(DeviceGeometry(panel)!.normalize(x: 900, y: 100) == Point(x: 0.9, y: 0.1))
    }

    @Test func udevsValueRoundTrips() {
        let matrix = CalibrationMatrix(1.06, 0.04, -0.03, -0.05, 0.93, 0.04)
        #expect(CalibrationMatrix(udev: matrix.description) == matrix)
        #expect(CalibrationMatrix(udev: "0 1 0 -1 0 1") == CalibrationMatrix(0, 1, 0, -1, 0, 1))
        #expect(CalibrationMatrix(udev: "1 0 0 0 1") == nil)
        #expect(CalibrationMatrix(udev: "1 0 0 0 1 0 0") == nil)
        #expect(CalibrationMatrix(udev: "1 0 nan 0 1 0") == nil)
        #expect(CalibrationMatrix(udev: "1 0 x 0 1 0") == nil)
        #expect(CalibrationMatrix(1, 2, 3, 2, 4, 6).inverse == nil)
    }

    // MARK: The wizard's pieces

    /// A decoder's frames for fingers at these x (device units of 0…1000, one array a frame,
    /// a finger a slot), then all lifted or, `cancelled`, dropped by the kernel.
    func frames(_ positions: [[Int32]], cancelled: Bool = false) -> [TouchFrame] {
        let description = DeviceDescription(name: "Panel", axes: [
            AbsoluteAxis(code: AbsCode.mtSlot, minimum: 0, maximum: 9),
            AbsoluteAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 1000),
            AbsoluteAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 1000),
            AbsoluteAxis(code: AbsCode.mtTrackingID, minimum: 0, maximum: 65535),
        ])
        var decoder = TouchDecoder(description: description)!
        var out: [TouchFrame] = []
        var time: Int64 = 0
        func send(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            time += 1000
            if decoder.process(InputEvent(time: Timestamp(microseconds: time), type: type, code: code, value: value)) { out.append(decoder.frame) }
        }
        for frame in positions {
            for (slot, x) in frame.enumerated() {
                send(EventType.abs, AbsCode.mtSlot, Int32(slot))
                send(EventType.abs, AbsCode.mtTrackingID, Int32(slot + 1))
                send(EventType.abs, AbsCode.mtPositionX, x)
                send(EventType.abs, AbsCode.mtPositionY, 500)
            }
            send(EventType.syn, SynCode.report, 0)
        }
        if cancelled {
            send(EventType.syn, SynCode.dropped, 0)
            send(EventType.syn, SynCode.report, 0)
        } else {
            for slot in 0..<(positions.map(\.count).max() ?? 0) {
                send(EventType.abs, AbsCode.mtSlot, Int32(slot))
                send(EventType.abs, AbsCode.mtTrackingID, -1)
            }
            send(EventType.syn, SynCode.report, 0)
        }
        return out
    }

    func result(_ frames: [TouchFrame]) -> [CalibrationTap.Result] {
        var tap = CalibrationTap()
        return frames.compactMap { tap.take($0) }
    }

    @Test func aTargetsTouchIsWhereOneFingerWasOnAverage() {
        #expect(result(frames([[100], [110], [120]])) == [.touched(Point(x: 0.11, y: 0.5))])
        #expect(result(frames([[100], [100, 600], [100]])) == [.moreThanOneFinger])
        #expect(result(frames([[100], [110]], cancelled: true)) == [.cancelled])
        // One after the other: each its own.
        var tap = CalibrationTap()
        let both = (frames([[100]]) + frames([[900]])).compactMap { tap.take($0) }
        #expect(both == [.touched(Point(x: 0.1, y: 0.5)), .touched(Point(x: 0.9, y: 0.5))])
    }

    @Test func targetsAreDrawnInTheCellNearestTheirPlaceAndAimedAtItsCentre() {
        let drawn = CalibrationTarget.drawn(rows: 24, columns: 80)
        #expect(drawn.map { $0.cell!.row } == [4, 4, 22, 22])
        #expect(drawn.map { $0.cell!.column } == [11, 71, 71, 11])
        #expect(drawn[0].point == Point(x: 10.5 / 80, y: 3.5 / 24))
        for (target, place) in zip(drawn, CalibrationTarget.places) { #expect(target.point.distance(to: place) < 0.03) }
        // The smallest terminal: still four targets, in its corners' cells.
        let tiny = CalibrationTarget.drawn(rows: 1, columns: 1)
        #expect(tiny.allSatisfy { $0.cell!.row == 1 && $0.cell!.column == 1 })
        #expect(CalibrationTarget.said.map(\.point) == CalibrationTarget.places)
    }

    @Test func theRuleMatchesThePanelAloneAndCarriesTheMatrix() {
        let matrix = CalibrationMatrix(0.9, 0, 0.05, 0, 1.1, -0.05)
        let rule = CalibrationRule.text(name: "ILITEK \"Multi\" *Touch*", phys: "usb-0000:00:14.0-3/input0", matrix: matrix)
        let line = rule.split(separator: "\n").first { !$0.hasPrefix("#") }!
        #expect(line == #"SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="ILITEK ?Multi? ?Touch?", ATTRS{phys}=="usb-0000:00:14.0-3/input0", ENV{LIBINPUT_CALIBRATION_MATRIX}="0.900000 0.000000 0.050000 0.000000 1.100000 -0.050000""#)
        #expect(CalibrationRule.fileName(name: "ILITEK", phys: "usb-0000:00:14.0-3/input0") == "99-gestured-calibration-usb-0000-00-14-0-3-input0.rules")
        #expect(CalibrationRule.fileName(name: "Goodix Capacitive TouchScreen", phys: "") == "99-gestured-calibration-goodix-capacitive-touchscreen.rules")
        #expect(CalibrationRule.fileName(name: "../..", phys: "") == "99-gestured-calibration-panel.rules")
        // A name with a newline cannot forge a second rule.
        let forged = CalibrationRule.text(name: "a\nRUN+=\"/bin/sh\"", phys: "", matrix: matrix)
        #expect(forged.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.count == 1)
    }
}
