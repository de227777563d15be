import Bindings
import Config
import ConfigParsing
import Gestures
import Pipeline
import RealModule
import Testing
import TouchCore

/// A lock, a pause or another mode holds from the moment it is given, whatever the
/// panel is doing then: a finger resting, a multi-tap waiting for its next tap, a
/// gesture under way. Each case is also played without the change, where it fires: so
/// each test can fail.
@Suite struct GateAtOnceTests {
    static let kiosk = """
        [daemon]
        modes = ["maintenance"]

        [[gesture]]
        name = "menu"
        type = "long-press"
        fingers = 5
        keys = "ctrl+alt+F2"
        command = "true"

        [[gesture]]
        name = "volume"
        type = "rotate"
        step = 15
        increase = { keys = "VolumeUp" }
        decrease = { keys = "VolumeDown" }

        [[gesture]]
        name = "twice"
        type = "tap"
        taps = 2
        max_interval_ms = 600000

        [[gesture]]
        name = "three"
        type = "swipe"
        fingers = 3
        keys = "ctrl+alt+Right"
        """

    static let keyCodes = KeyCodes(byName: ["KEY_LEFTCTRL": 29, "KEY_LEFTALT": 56, "KEY_RIGHT": 106, "KEY_F2": 60,
                                            "KEY_VOLUMEUP": 115, "KEY_VOLUMEDOWN": 114, "KEY_TAB": 15,
                                            "KEY_LEFTSHIFT": 42, "KEY_LEFTMETA": 125, "KEY_L": 38])

    let panel = DeviceDescription(name: "Panel", axes: [
        AbsoluteAxis(code: AbsCode.mtSlot, minimum: 0, maximum: 9),
        AbsoluteAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 1000, resolution: 10),
        AbsoluteAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 1000, resolution: 10),
    ])

    /// A panel's touches, frame by frame (1000 units a side, 10 a millimetre).
    struct Script {
        var w = EventWriter(at: 0)
        var id: Int32 = 0

        mutating func at(_ seconds: Double) { w.time = Timestamp(seconds: seconds) }

        /// Fingers in `slots` land (at 200 + 100·slot, 500), in one frame.
        mutating func land(_ slots: ClosedRange<Int32>) {
            for slot in slots {
                id += 1
                w.abs(AbsCode.mtSlot, slot)
                w.abs(AbsCode.mtTrackingID, id)
                w.abs(AbsCode.mtPositionX, 200 + 100 * slot)
                w.abs(AbsCode.mtPositionY, 500)
            }
            w.syn()
        }

        /// One finger tapping at `seconds` for 50 ms.
        mutating func tap(at seconds: Double) {
            at(seconds)
            land(0...0)
            at(seconds + 0.05)
            lift(0...0)
        }

        mutating func move(_ slot: Int32, x: Int32, y: Int32) {
            w.abs(AbsCode.mtSlot, slot)
            w.abs(AbsCode.mtPositionX, x)
            w.abs(AbsCode.mtPositionY, y)
        }

        mutating func lift(_ slots: ClosedRange<Int32>) {
            for slot in slots {
                w.abs(AbsCode.mtSlot, slot)
                w.abs(AbsCode.mtTrackingID, -1)
            }
            w.syn()
        }

        /// The fingers in `slots` swiped right by `mm` over 10 frames, then lifted.
        mutating func swipe(_ slots: ClosedRange<Int32>, mm: Int32) {
            land(slots)
            for n in Int32(1)...10 {
                for slot in slots { move(slot, x: 200 + 100 * slot + mm * n, y: 500) }
                w.syn()
            }
            lift(slots)
        }

        /// A finger at slot 1 turning a quarter turn around slot 0's resting finger
        /// (at 200, 500), 10 cm away, in 30 frames.
        mutating func turn() {
            land(1...1)
            for n in 1...30 {
                let angle = Double(n) / 30 * Double.pi / 2
                move(1, x: 200 + Int32(300 * Double.cos(angle)), y: 500 + Int32(300 * Double.sin(angle)))
                w.syn()
            }
            lift(1...1)
        }
    }

    /// What happens: gesture events and actions, before and after `gate` is given at
    /// `gateAt` seconds (when it is given).
    func play(_ toml: String, _ script: Script, gate: GestureGate?, at gateAt: Double) throws -> (before: [String], after: [String]) {
        let pipeline = try TouchscreenPipeline(panel, config: try Configuration.parse(toml, file: "kiosk.toml", keyCodes: Self.keyCodes))
        var before: [String] = [], after: [String] = []
        var given = false
        func note(_ step: Step) {
            let lines = step.events.map { "\($0.name) \($0.phase.rawValue)" } + step.actions.map { Self.describe($0.action) }
            if given { after += lines } else { before += lines }
        }
        let end = script.w.events.last?.time ?? Timestamp(seconds: 0)
        for event in script.w.events {
            if let gate, !given, event.time > Timestamp(seconds: gateAt) {
                given = true
                pipeline.step(.gate(gate, at: Timestamp(seconds: gateAt)), note)
            }
            pipeline.step(.event(event), note)
        }
        pipeline.step(.deadline(end + 1_000_000), note)
        return (before, after)
    }

    /// The kiosk's gestures over `script`: without a gate, what fires passes `firesFreely`;
    /// with `gate` given at `gateAt`, nothing fires after it.
    func expectTheGateHolds(_ gate: GestureGate, at gateAt: Double, over script: Script,
                            sourceLocation: SourceLocation = #_sourceLocation,
                            firesFreely: ([String]) -> Bool) throws {
        let free = try play(Self.kiosk, script, gate: nil, at: 0).before
        #expect(firesFreely(free), "\(free)", sourceLocation: sourceLocation)
        let gated = try play(Self.kiosk, script, gate: gate, at: gateAt)
        #expect(gated.after.isEmpty, "\(gated.after)", sourceLocation: sourceLocation)
    }

    static func describe(_ action: Action) -> String {
        switch action {
        case .keys(let binding, let keys): "\(binding): keys \(keys.text)"
        case .run(let command): "\(command.binding): run"
        default: "\(action)"
        }
    }

    static let gates: [String: GestureGate] = [
        "paused": GestureGate(mode: "default", paused: true),
        "locked": GestureGate(mode: "default", locked: true),
        "maintenance": GestureGate(mode: "maintenance"),
    ]

    @Test(arguments: gates.keys.sorted())
    func aFingerRestingDoesNotCarryTheOldGestures(_ name: String) throws {
        let gate = Self.gates[name]!
        var fivePress = Script()
        fivePress.land(0...0)
        fivePress.at(0.2)
        fivePress.land(1...4)
        fivePress.at(1.5)
        fivePress.lift(0...4)
        try expectTheGateHolds(gate, at: 0.1, over: fivePress) { $0.contains("menu: keys ctrl+alt+F2") }

        var rotation = Script()
        rotation.land(0...0)
        rotation.at(0.2)
        rotation.turn()
        rotation.lift(0...0)
        try expectTheGateHolds(gate, at: 0.1, over: rotation) { free in
            free.filter { $0 == "volume: keys VolumeUp" || $0 == "volume: keys VolumeDown" }.count >= 5
        }
    }

    @Test(arguments: gates.keys.sorted())
    func aWaitingMultiTapDoesNotCarryTheOldGestures(_ name: String) throws {
        let gate = Self.gates[name]!
        var script = Script()
        script.tap(at: 0)  // the first of two taps: the second may come for ten minutes
        script.at(3)
        script.swipe(0...2, mm: 30)
        script.tap(at: 5)
        try expectTheGateHolds(gate, at: 1, over: script) { $0.contains("three: keys ctrl+alt+Right") }
    }

    @Test(arguments: gates.keys.sorted())
    func aGestureUnderWayIsCancelledAndStepsNoMore(_ name: String) throws {
        let gate = Self.gates[name]!
        var script = Script()
        script.land(0...0)
        script.turn()
        script.lift(0...0)
        let gated = try play(Self.kiosk, script, gate: gate, at: 0.2)
        #expect(gated.before.contains("volume began") && gated.before.contains("volume: keys VolumeUp"), "\(gated.before)")
        #expect(gated.after == ["volume cancelled"])
    }

    @Test func aWaitingMultiTapIsDecidedUnderTheGateInForce() throws {
        let config = """
            [[gesture]]
            name = "once"
            type = "tap"
            when_locked = true
            command = "true"

            [[gesture]]
            name = "twice"
            type = "tap"
            taps = 2
            max_interval_ms = 600000
            command = "true"
            """
        var script = Script()
        script.tap(at: 0)
        script.tap(at: 2)
        #expect(try play(config, script, gate: nil, at: 0).before == ["twice recognized", "twice: run"])
        // Locked while the single tap waits on the double: the double is out, so the
        // single tap, admitted, is recognized then, and the next tap is one again.
        let locked = try play(config, script, gate: GestureGate(mode: "default", locked: true), at: 1)
        #expect(locked.before.isEmpty)
        #expect(locked.after == ["once recognized", "once: run", "once recognized", "once: run"], "\(locked.after)")
    }

    @Test func theGestureAdmittedGoesOnUnderTheNewGate() throws {
        let config = """
            [[gesture]]
            name = "volume"
            type = "rotate"
            when_locked = true
            step = 15
            increase = { keys = "VolumeUp" }
            decrease = { keys = "VolumeDown" }
            """
        var script = Script()
        script.land(0...0)
        script.turn()
        script.lift(0...0)
        let locked = try play(config, script, gate: GestureGate(mode: "default", locked: true), at: 0.2)
        #expect(locked.after.contains("volume: keys VolumeUp") && locked.after.last == "volume ended", "\(locked.after)")
    }
}
