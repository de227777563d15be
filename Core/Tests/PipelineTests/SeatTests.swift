import Bindings
import Config
import Pipeline
import Testing
import TouchCore

/// What the seat decides between its panels, beyond what the seat fixtures show whole.
@Suite struct SeatTests {
    let panel = DeviceDescription(name: "Panel", axes: [
        AbsoluteAxis(code: AbsCode.mtSlot, minimum: 0, maximum: 9),
        AbsoluteAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 3839, resolution: 13),
        AbsoluteAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 2159, resolution: 13),
        AbsoluteAxis(code: AbsCode.mtTrackingID, minimum: 0, maximum: 65535),
    ])

    func seat(_ toml: String) throws -> Seat {
        let seat = Seat(config: try Configuration.parse(toml, file: "seat.toml", keyCodes: GateAtOnceTests.keyCodes))
        for node in ["a", "b"] {
            try seat.step(.appeared(SeatDevice(node: node, description: panel), at: Timestamp(microseconds: 0))) { _ in }
        }
        return seat
    }

    func tap(at seconds: Double, id: Int32) -> [InputEvent] {
        var w = EventWriter(at: seconds)
        w.abs(AbsCode.mtSlot, 0)
        w.abs(AbsCode.mtTrackingID, id)
        w.abs(AbsCode.mtPositionX, 1900)
        w.abs(AbsCode.mtPositionY, 1000)
        w.syn()
        w.time = Timestamp(seconds: seconds + 0.05)
        w.abs(AbsCode.mtTrackingID, -1)
        w.syn()
        return w.events
    }

    /// Every effect in order, as words: the gestures, the writes, the changes.
    func play(_ seat: Seat, _ inputs: [SeatInput]) throws -> [String] {
        var out: [String] = []
        for input in inputs {
            try seat.step(input) { effect in
                switch effect {
                case .step(let node, _, let step):
                    out += step.events.map { "\(node) \(fixed($0.time.seconds, decimals: 2)) \($0.name)" }
                case .write(let device, let events):
                    out.append("write \(device) \(events.filter { $0.type == EventType.key }.map { "\($0.code)=\($0.value)" }.joined(separator: " "))")
                case .control(let change, let time):
                    out.append("\(fixed(time.seconds, decimals: 2)) \(change)")
                default:
                    break
                }
            }
        }
        return out
    }

    @Test func aPanelsDeadlineRunsBeforeALaterEventOfAnother() throws {
        // A's tap waits for a second one until its window closes; B's tap comes a second
        // later: A's single tap is decided at its own time, before B's.
        let seat = try seat("""
            [[gesture]]
            name = "double"
            type = "tap"
            taps = 2
            [[gesture]]
            name = "single"
            type = "tap"
            """)
        let inputs = tap(at: 0, id: 1).map { SeatInput.event(node: "a", $0) } + tap(at: 1, id: 1).map { SeatInput.event(node: "b", $0) }
        let fired = try play(seat, inputs)
        #expect(fired.first?.hasPrefix("a ") == true && fired.first?.hasSuffix(" single") == true, "\(fired)")
        #expect(fired.count == 1, "B's tap still waits for its window: \(fired)")
        #expect(seat.nextDeadline != nil)
    }

    @Test func aDoubleClicksSecondClickIsADeadline() throws {
        let seat = try seat("""
            [[gesture]]
            name = "open"
            type = "tap"
            click = "left"
            double = true
            """)
        var out = try play(seat, tap(at: 0, id: 1).map { SeatInput.event(node: "a", $0) })
        #expect(out.filter { $0.hasPrefix("write pointer") } == ["write pointer 272=1 272=0"], "\(out)")
        let second = try #require(seat.nextDeadline)
        #expect(second.microseconds == Timestamp(seconds: 0.05).microseconds + VirtualInput.doubleClickGapMicroseconds)
        out = try play(seat, [.deadline(second)])
        #expect(out == ["write pointer 272=1 272=0"])
        #expect(seat.nextDeadline == nil)
    }

    @Test func aRefusedRequestChangesNothing() throws {
        let seat = try seat("[[gesture]]\nname = \"tap\"\ntype = \"tap\"\n")
        #expect(throws: ControlRefusal.unknownMode("nope", known: ["default"])) {
            try seat.step(.request(.setMode("nope"), why: "test", at: Timestamp(seconds: 1))) { _ in }
        }
        #expect(throws: ControlRefusal.rotationOutOfRange(45)) {
            try seat.step(.request(.rotate(degrees: 45), why: "test", at: Timestamp(seconds: 1))) { _ in }
        }
        #expect(throws: ControlRefusal.unknownDevice("c")) {
            try seat.step(.request(.rotatePanel(node: "c", degrees: 90), why: "test", at: Timestamp(seconds: 1))) { _ in }
        }
        #expect(seat.control.gate == GestureGate(mode: "default"))
        #expect(seat.displayRotation == .upright)
    }

    @Test func aTwinThatCannotBeMadeLeavesThePanelReadBesideApplications() throws {
        let seat = Seat(config: try Configuration.parse("[daemon]\nisolate = true\n[[gesture]]\nname = \"tap\"\ntype = \"tap\"\n", file: "seat.toml"))
        var asked: [String] = []
        try seat.step(.appeared(SeatDevice(node: "a", description: panel, live: .init(kernelState: nil, isTwin: false, group: nil)),
                                at: Timestamp(microseconds: 0))) { if case .isolate(let node) = $0 { asked.append(node) } }
        #expect(asked == ["a"])
        #expect(seat.panel("a")?.isolated == true)
        try seat.step(.isolationFailed(node: "a", error: "Permission denied", at: Timestamp(microseconds: 1))) { _ in }
        #expect(seat.panel("a")?.isolated == false)
    }

    @Test func aReloadThatIgnoresAPanelLetsItGoAndCancelsItsTouches() throws {
        let seat = try seat("[[gesture]]\nname = \"tap\"\ntype = \"tap\"\n")
        let down = tap(at: 0, id: 1).prefix(5).map { SeatInput.event(node: "a", $0) }
        _ = try play(seat, Array(down))
        let ignoring = try Configuration.parse("[[device]]\nname = \"Panel\"\nignore = true\n[[gesture]]\nname = \"tap\"\ntype = \"tap\"\n",
                                               file: "seat.toml")
        var letGo: [String] = [], cancelled = 0
        try seat.step(.reload(ignoring, at: Timestamp(seconds: 0.02))) { effect in
            if case .letGo(let node, let reopen) = effect, !reopen { letGo.append(node) }
            if case .step(_, _, let step) = effect, case .cancel = step.input { cancelled += step.frame?.touches.count ?? 0 }
        }
        #expect(letGo.sorted() == ["a", "b"])
        #expect(cancelled == 1)
        #expect(seat.panels.isEmpty)
    }
}
