import Bindings
import Config
import ConfigDocument
import Gestures
import Pipeline
import Testing
import TouchCore

/// The overlay's updates (`overlay = true`): for the session in front's agent alone, at
/// most 240 a second, the fingers and the lead gesture's progress and verdict.
@Suite struct FeedbackTests {
    let sessions = SessionsTests()
    let agent = BusPeer(name: ":1.5", uid: 1000, session: nil)
    let machine = """
        [daemon]
        bus = "none"
        overlay = true

        [[gesture]]
        name = "drag"
        type = "pan"
        min_distance_mm = 20
        """

    /// A seat with alice's session in front and, if `handedOver`, her agent on the bus.
    func seat(_ toml: String, handedOver user: String? = "") throws -> Seat {
        let seat = try sessions.seat(toml)
        if let user { try seat.step(.push(sessions.push(user), by: agent, at: sessions.at(0.1))) }
        return seat
    }

    /// The updates a one-finger drag at 1 s makes (by default 30 mm, a frame every 10 ms),
    /// with the step times they came in.
    func updates(_ seat: Seat, drag: [SeatInput] = SeatTests().drag("panel", at: 1, id: 7)) throws -> [(time: Double, agent: String, frame: FeedbackFrame)] {
        var out: [(Double, String, FeedbackFrame)] = []
        func step(_ input: SeatInput) throws {
            try seat.step(input)
            for effect in seat.effects {
                if case .feedback(let frame, let agent) = effect { out.append((input.time.seconds, agent, frame)) }
            }
        }
        for input in drag + [.deadline(sessions.at(3))] {
            // Each deadline at its own time, as the daemon's timer gives them.
            while let due = seat.nextDeadline, due < input.time { try step(.deadline(due)) }
            try step(input)
        }
        return out
    }

    /// A drag of one frame after each of `gaps` (ms), from 1 s, 1 mm each, then the lift.
    func drag(gaps: [Double]) -> [SeatInput] {
        var w = EventWriter(at: 1)
        w.abs(AbsCode.mtSlot, 0)
        w.abs(AbsCode.mtTrackingID, 7)
        for (i, gap) in ([0] + gaps).enumerated() {
            w.time = w.time + gap
            w.abs(AbsCode.mtPositionX, 1000 + Int32(i) * 13)
            w.abs(AbsCode.mtPositionY, 1000)
            w.events.append(InputEvent(time: w.time, type: EventType.syn, code: SynCode.report, value: 0))
        }
        w.time = w.time + 10
        w.abs(AbsCode.mtTrackingID, -1)
        w.syn()
        return w.events.map { .event(node: "panel", $0) }
    }

    @Test func theAgentInFrontGetsTheFingersAndTheLeadEachFrameAsItComes() throws {
        let updates = try updates(try seat(machine))
        #expect(!updates.isEmpty)
        #expect(updates.allSatisfy { $0.agent == ":1.5" && $0.frame.panel == "panel" })
        // 16 frames 10 ms apart and the lift: each frame's update at its own step.
        let frameTimes = (0...16).map { 1 + Double($0) / 100 }
        #expect(updates.map(\.time).elementsEqual(frameTimes) { abs($0 - $1) < 1e-6 }, "\(updates.map(\.time))")
        let moving = updates.filter { !$0.frame.fingers.isEmpty }
        #expect(moving.allSatisfy { $0.frame.fingers.count == 1 })
        let deciding = moving.prefix { $0.frame.lead.verdict == .deciding }
        #expect(!deciding.isEmpty && deciding.allSatisfy { $0.frame.lead.gesture == "drag" })
        #expect(zip(deciding, deciding.dropFirst()).allSatisfy { $0.frame.lead.progress <= $1.frame.lead.progress })
        #expect(moving.last?.frame.lead == FeedbackLead(gesture: "drag", progress: 1, verdict: .fired))
        // The lift's update comes last, when its time comes: the drag fired.
        #expect(updates.last?.frame.fingers == [] && updates.last?.frame.lead.verdict == .fired)
    }

    /// Real panels' frames (as recorded in the evemu-devices collection) come at 7.4 ms
    /// (EP0430M09, 135 Hz), at 8 ms with a frame missed now and then (QUANTA), at 8 and
    /// 10 ms in turn (ELAN), and two are read together when the daemon wakes late: each
    /// frame's update goes out at its own step. Spacing each from the last one sent at
    /// 1/120 s held most of them back, by up to 8 ms.
    @Test func realPanelsRatesAndFramesReadTogetherWaitForNothing() throws {
        let rates: [(String, [Double])] = [
            ("135 Hz", Array(repeating: 7.4, count: 60)),
            ("125 Hz, a frame missed", (0..<60).map { $0 % 7 == 6 ? 16 : 8 }),
            ("8 and 10 ms in turn", (0..<60).map { $0.isMultiple(of: 2) ? 8 : 10 }),
            ("two read together", (0..<60).map { $0.isMultiple(of: 2) ? 0 : 20 }),
        ]
        for (name, gaps) in rates {
            let drag = drag(gaps: gaps)
            let frameTimes = drag.compactMap { input -> Double? in
                if case .event(_, let event) = input, event.type == EventType.syn { return event.time.seconds }
                return nil
            }
            let updates = try updates(try seat(machine), drag: drag)
            #expect(updates.map(\.time).elementsEqual(frameTimes) { abs($0 - $1) < 1e-6 }, "\(name): \(updates.count) updates for \(frameTimes.count) frames")
        }
    }

    @Test func aFloodOfFramesGetsAtMost240UpdatesASecondAndItsLastFrameDrawn() throws {
        // 500 frames 1 ms apart: at most two within 1/240 s, none faster on the whole, and
        // the last frame before the lift still goes out (late, when its time comes).
        let updates = try updates(try seat(machine), drag: drag(gaps: Array(repeating: 1, count: 499)))
        for (first, third) in zip(updates, updates.dropFirst(2)) { #expect(third.time - first.time >= 1.0 / 240 - 1e-9) }
        // 0.499 s at 240 a second, one more at the start (two at most back to back) and the lift's.
        #expect((119...123).contains(updates.count), "\(updates.count) updates")
        // Sent at or after the last frame's time, the last update with a finger is that frame's.
        let lastFrame = 1 + 0.499
        #expect((updates.last { !$0.frame.fingers.isEmpty }?.time ?? 0) >= lastFrame - 1e-9)
    }

    @Test func aLiftAfterNothingFiredSaysNothingMatches() throws {
        let short = machine.replacingOccurrences(of: "min_distance_mm = 20", with: "min_distance_mm = 100")
        let last = try updates(try seat(short)).last
        #expect(last?.frame.fingers == [] && last?.frame.lead == FeedbackLead(gesture: nil, progress: 0, verdict: .nothingMatches))
    }

    @Test func theUpdateOfAStepThatStartsACommandWaitsThePacesSpacing() throws {
        // The drag's lift ends it, and its command runs on "ended".
        let commanded = machine + "\ncommand = \"true\"\non = [\"ended\"]\n"
        let seat = try seat(commanded)
        var steps: [(time: Double, run: Bool, feedback: Bool)] = []
        for input in SeatTests().drag("panel", at: 1, id: 7) + [.deadline(sessions.at(2))] {
            while let due = seat.nextDeadline, due < input.time {
                var fed = false
                try seat.step(.deadline(due))
                for effect in seat.effects { if case .feedback = effect { fed = true } }
                steps.append((due.seconds, false, fed))
            }
            var ran = false, fed = false
            try seat.step(input)
            for effect in seat.effects {
                if case .run = effect { ran = true }
                if case .feedback = effect { fed = true }
            }
            steps.append((input.time.seconds, ran, fed))
        }
        let command = try #require(steps.firstIndex { $0.run })
        #expect(!steps[command].feedback, "the step that starts the command sends no update")
        let next = try #require(steps[(command + 1)...].first { $0.feedback })
        #expect(abs(next.time - steps[command].time - 1.0 / 240) < 1e-3, "it goes 1/240 s later (\(next.time - steps[command].time) s)")
    }

    @Test func noneWithoutAnAgentInFrontOrWithTheOverlayOff() throws {
        #expect(try updates(try seat(machine, handedOver: nil)).isEmpty)
        let off = machine.replacingOccurrences(of: "overlay = true", with: "overlay = false")
        #expect(try updates(try seat(off)).isEmpty)
        // A user's own file turns it on for their session.
        #expect(try !updates(try seat(off, handedOver: "[daemon]\noverlay = true\n")).isEmpty)
    }
}
