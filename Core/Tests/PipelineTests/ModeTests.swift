import Bindings
import Config
import ConfigParsing
import Gestures
import Pipeline
import Testing
import TouchCore

/// Modes, pauses and the lock over generated recordings: what fires when.
@Suite struct ModeTests {
    static let modes = """
        [daemon]
        mode_timeout_s = 5

        [[gesture]]
        name = "enter"
        type = "tap"
        fingers = 2
        mode = "maintenance"

        [[gesture]]
        name = "ordinary"
        type = "tap"

        [[gesture]]
        name = "fix"
        type = "tap"
        modes = ["maintenance"]

        [[gesture]]
        name = "hold"
        type = "long-press"
        fingers = 3
        modes = ["*"]
        pause_s = 10
        """

    /// A 2-in-1's posture: a gesture with when_tablet rests in the other one.
    @Test func theGateKeepsAWhenTabletGestureToItsPosture() {
        var keyboard = GestureSpec(name: "keyboard", type: .tap), desk = GestureSpec(name: "desk", type: .tap)
        keyboard.whenTablet = true
        desk.whenTablet = false
        let both = GestureSpec(name: "both", type: .tap)
        let laptop = GestureGate(mode: "default"), tablet = GestureGate(mode: "default", tablet: true)
        #expect([keyboard, desk, both].map { laptop.exclusion(of: $0) } == ["not in tablet mode", nil, nil])
        #expect([keyboard, desk, both].map { tablet.exclusion(of: $0) } == [nil, "in tablet mode", nil])
        #expect(laptop.admitted([keyboard, desk, both]).map(\.name) == ["desk", "both"])
    }

    /// A tap of `fingers` fingers at `t` seconds, 50 ms long.
    static func tap(at t: Double, fingers: Int = 1, id: inout Int) -> String {
        var text = ""
        for f in 0..<fingers {
            id += 1
            text += "E: \(t) 0003 002f \(f)\nE: \(t) 0003 0039 \(id)\nE: \(t) 0003 0035 \(300 + 100 * f)\nE: \(t) 0003 0036 500\n"
        }
        text += "E: \(t) 0000 0000 0\n"
        for f in 0..<fingers { text += "E: \(t + 0.05) 0003 002f \(f)\nE: \(t + 0.05) 0003 0039 -1\n" }
        return text + "E: \(t + 0.05) 0000 0000 0\n"
    }

    /// A hold of three fingers for 0.8 s at `t`.
    static func hold(at t: Double, id: inout Int) -> String {
        var text = ""
        for f in 0..<3 {
            id += 1
            text += "E: \(t) 0003 002f \(f)\nE: \(t) 0003 0039 \(id)\nE: \(t) 0003 0035 \(300 + 100 * f)\nE: \(t) 0003 0036 500\n"
        }
        text += "E: \(t) 0000 0000 0\n"
        for f in 0..<3 { text += "E: \(t + 0.8) 0003 002f \(f)\nE: \(t + 0.8) 0003 0039 -1\n" }
        return text + "E: \(t + 0.8) 0000 0000 0\n"
    }

    /// What fired (gesture names with their times) and the control changes, in order.
    func play(_ toml: String, _ script: (inout Int) -> String) throws -> [String] {
        var id = 0
        let text = description + script(&id)
        var playback = Playback(config: try Configuration.parse(toml, file: "modes.toml"))
        var out: [String] = []
        playback.onControl = { time, change in out.append("\(fixed(time.seconds, decimals: 2)) \(change)") }
        try playback.play(try recording(text)) { step in
            out += step.events.map { "\(fixed($0.time.seconds, decimals: 2)) \($0.name)" }
        }
        return out
    }

    @Test func theEnteringGestureSwitchesAndOtherModesGesturesDoNotFire() throws {
        let fired = try play(Self.modes) { id in
            Self.tap(at: 0, id: &id) + Self.tap(at: 1, fingers: 2, id: &id) + Self.tap(at: 2, id: &id) + Self.tap(at: 3, id: &id)
        }
        #expect(fired == [
            "0.05 ordinary",
            "1.05 enter", "1.05 mode: default → maintenance (enter)",
            "2.05 fix", "3.05 fix",
        ])
    }

    @Test func theTimeoutReturnsToTheStartModeAfterThatLongWithoutAGesture() throws {
        let fired = try play(Self.modes) { id in
            Self.tap(at: 0, fingers: 2, id: &id) + Self.tap(at: 3, id: &id) + Self.tap(at: 8.5, id: &id) + Self.tap(at: 9, id: &id)
        }
        // The tap at 3 s keeps maintenance until 8.05 s; the tap at 8.5 s is an ordinary one.
        #expect(fired == [
            "0.05 enter", "0.05 mode: default → maintenance (enter)",
            "3.05 fix",
            "8.05 mode: maintenance → default (5.000 s without a gesture)",
            "8.55 ordinary", "9.05 ordinary",
        ])
    }

    @Test func aPauseLetsNothingFireUntilItRunsOut() throws {
        let fired = try play(Self.modes) { id in
            Self.hold(at: 0, id: &id) + Self.tap(at: 2, id: &id) + Self.tap(at: 2, fingers: 2, id: &id) + Self.tap(at: 11, id: &id)
        }
        #expect(fired == [
            "0.50 hold", "0.50 paused for 10.000 s: every touch passes through (hold)",
            "10.50 resumed: gestures fire again (the pause ran out)",
            "11.05 ordinary",
        ])
    }

    let panel = DeviceDescription(name: "Panel", axes: [
        AbsoluteAxis(code: AbsCode.mtSlot, minimum: 0, maximum: 9),
        AbsoluteAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 1000, resolution: 10),
        AbsoluteAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 1000, resolution: 10),
    ])

    /// One finger down at `t` (unless down already), moved right `mm` in 10 frames 10 ms
    /// apart, lifted when `lift`: its events.
    static func drag(at t: Double, id: Int32, mm: Double, lift: Bool, down: Bool = true) -> [InputEvent] {
        var w = EventWriter(at: t)
        w.abs(AbsCode.mtSlot, 0)
        if down { w.abs(AbsCode.mtTrackingID, id) }
        w.abs(AbsCode.mtPositionX, 300)
        w.abs(AbsCode.mtPositionY, 500)
        w.syn()
        for n in 1...10 {
            w.abs(AbsCode.mtPositionX, 300 + Int32(mm * Double(n)))
            w.syn()
        }
        if lift {
            w.abs(AbsCode.mtTrackingID, -1)
            w.syn()
        }
        return w.events
    }

    /// The gesture events of `events`; `gateAfterFirst` is given after the first frame.
    func feed(_ pipeline: TouchscreenPipeline, _ events: [InputEvent], gateAfterFirst: GestureGate? = nil) -> [String] {
        var out: [String] = []
        var gate = gateAfterFirst
        for event in events {
            pipeline.step(.event(event)) { step in out += step.events.map { "\($0.name) \($0.phase.rawValue)" } }
            if event.type == EventType.syn, let next = gate {
                pipeline.step(.gate(next, at: event.time)) { step in out += step.events.map { "\($0.name) \($0.phase.rawValue)" } }
                gate = nil
            }
        }
        return out
    }

    @Test func aSwitchMidSequenceExcludesAtOnceAndAdmitsFromTheNextSequence() throws {
        let config = try Configuration.parse("""
            [daemon]
            modes = ["maintenance"]

            [[gesture]]
            name = "pan"
            type = "pan"

            [[gesture]]
            name = "fix"
            type = "pan"
            modes = ["maintenance"]
            mode = "default"
            """, file: "t.toml")
        let pipeline = try TouchscreenPipeline(panel, config: config)
        let first = feed(pipeline, Self.drag(at: 0, id: 1, mm: 10, lift: true), gateAfterFirst: GestureGate(mode: "maintenance"))
        #expect(first.isEmpty, "\(first)")  // the pan had not begun: it never does
        #expect(!first.contains { $0.hasPrefix("fix") })
        #expect(pipeline.gate.mode == "maintenance" && pipeline.reloadPending)  // made when the next sequence begins
        let second = feed(pipeline, Self.drag(at: 1, id: 2, mm: 10, lift: true))
        #expect(second.first == "fix began" && second.last == "fix ended")
    }

    @Test func lockedOnlyWhenLockedGesturesFire() throws {
        let config = try Configuration.parse("""
            [[gesture]]
            name = "pan"
            type = "pan"

            [[gesture]]
            name = "emergency"
            type = "pan"
            fingers = 2
            when_locked = true
            """, file: "t.toml")
        let pipeline = try TouchscreenPipeline(panel, config: config, gate: GestureGate(mode: "default", locked: true))
        #expect(feed(pipeline, Self.drag(at: 0, id: 1, mm: 10, lift: true)).isEmpty)
        pipeline.step(.gate(GestureGate(mode: "default"), at: Timestamp(seconds: 0.5))) { _ in }
        #expect(feed(pipeline, Self.drag(at: 1, id: 2, mm: 10, lift: true)).first == "pan began")
    }

    @Test func pausedTheIsolatedPanelsTwinGetsEveryFrameAsItComes() throws {
        let config = try Configuration.parse("""
            [daemon]
            isolate = true

            [[gesture]]
            name = "pan"
            type = "pan"
            delays_touches_began = true
            """, file: "t.toml")
        func twinFrames(_ gate: GestureGate) throws -> [Int] {
            let pipeline = try TouchscreenPipeline(panel, config: config, isolated: true, gate: gate)
            let events = Self.drag(at: 0, id: 1, mm: 1, lift: true)
            var frames: [Int] = []
            for event in events {
                var written = 0
                pipeline.step(.event(event)) { step in written += step.twin.filter { $0.type == EventType.syn }.count }
                if event.type == EventType.syn { frames.append(written) }
            }
            return frames
        }
        // Unpaused, the pan holds the first frames back (delays_touches_began); paused, each goes at once.
        #expect(try twinFrames(GestureGate(mode: "default")).first == 0)
        let paused = try twinFrames(GestureGate(mode: "default", paused: true))
        #expect(paused == Array(repeating: 1, count: 12), "\(paused)")
    }
}
