import Bindings
import Config
import ConfigDocument
import Gestures
import Pipeline
import Testing
import TouchCore

/// The overlay's updates (`overlay = true`): for the session in front's agent alone, at
/// most 120 a second, the fingers and the lead gesture's progress and verdict.
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

    /// The updates a one-finger 30 mm drag at 1 s makes, with the step times they came in.
    func updates(_ seat: Seat) throws -> [(time: Double, agent: String, frame: FeedbackFrame)] {
        var out: [(Double, String, FeedbackFrame)] = []
        func step(_ input: SeatInput) throws {
            try seat.step(input)
            for effect in seat.effects {
                if case .feedback(let frame, let agent) = effect { out.append((input.time.seconds, agent, frame)) }
            }
        }
        for input in SeatTests().drag("panel", at: 1, id: 7) + [.deadline(sessions.at(2))] {
            // Each deadline at its own time, as the daemon's timer gives them.
            while let due = seat.nextDeadline, due < input.time { try step(.deadline(due)) }
            try step(input)
        }
        return out
    }

    @Test func theAgentInFrontGetsTheFingersAndTheLeadAtMost120TimesASecond() throws {
        let updates = try updates(try seat(machine))
        #expect(!updates.isEmpty)
        #expect(updates.allSatisfy { $0.agent == ":1.5" && $0.frame.panel == "panel" })
        // 16 frames 10 ms apart and the lift: never two updates within 1/120 s, and so
        // each frame's as it comes.
        for (earlier, later) in zip(updates, updates.dropFirst()) { #expect(later.time - earlier.time >= 1.0 / 120 - 1e-9) }
        #expect(updates.count >= 16 && updates.count <= 17)
        let moving = updates.filter { !$0.frame.fingers.isEmpty }
        #expect(moving.allSatisfy { $0.frame.fingers.count == 1 })
        let deciding = moving.prefix { $0.frame.lead.verdict == .deciding }
        #expect(!deciding.isEmpty && deciding.allSatisfy { $0.frame.lead.gesture == "drag" })
        #expect(zip(deciding, deciding.dropFirst()).allSatisfy { $0.frame.lead.progress <= $1.frame.lead.progress })
        #expect(moving.last?.frame.lead == FeedbackLead(gesture: "drag", progress: 1, verdict: .fired))
        // The lift's update comes last, when its time comes: the drag fired.
        #expect(updates.last?.frame.fingers == [] && updates.last?.frame.lead.verdict == .fired)
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
        #expect(abs(next.time - steps[command].time - 1.0 / 120) < 1e-3, "it goes 1/120 s later (\(next.time - steps[command].time) s)")
    }

    @Test func noneWithoutAnAgentInFrontOrWithTheOverlayOff() throws {
        #expect(try updates(try seat(machine, handedOver: nil)).isEmpty)
        let off = machine.replacingOccurrences(of: "overlay = true", with: "overlay = false")
        #expect(try updates(try seat(off)).isEmpty)
        // A user's own file turns it on for their session.
        #expect(try !updates(try seat(off, handedOver: "[daemon]\noverlay = true\n")).isEmpty)
    }
}
