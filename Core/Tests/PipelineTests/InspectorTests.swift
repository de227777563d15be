import Pipeline
import Testing
import TouchCore

/// The studio's inspector (`Inspect`): only a process of the user in front watches, one at
/// a time; it stops with its session in front or its connection, and its updates carry
/// each finger's id and, once the fingers lift, why each gesture ended as it did.
@Suite struct InspectorTests {
    let sessions = SessionsTests()
    let studio = BusPeer(name: ":1.9", uid: 1000, session: "/org/freedesktop/login1/session/_31")

    @Test func onlyTheUserInFrontWatchesAndOneAtATime() throws {
        let seat = try sessions.seat()
        let bobs = BusPeer(name: ":1.10", uid: 1001, session: "/org/freedesktop/login1/session/_32")
        #expect(throws: ControlRefusal.notTheActiveSession) { try seat.step(.inspect(.on, by: bobs, at: sessions.at(0.5))) }
        #expect(seat.inspector == nil)
        try seat.step(.inspect(.dry, by: studio, at: sessions.at(0.6)))
        #expect(seat.inspector?.name == ":1.9" && seat.inspector?.owner == .session(sessions.alice.id) && seat.inspector?.dryRun == true)
        // Another of alice's processes takes over; the first may no longer end it.
        let other = BusPeer(name: ":1.11", uid: 1000, session: nil)
        try seat.step(.inspect(.on, by: other, at: sessions.at(0.7)))
        try seat.step(.inspect(.off, by: studio, at: sessions.at(0.8)))
        #expect(seat.inspector?.name == ":1.11" && seat.inspector?.dryRun == false)
        try seat.step(.peerLeft(name: ":1.11", at: sessions.at(0.9)))
        #expect(seat.inspector == nil)
    }

    @Test func anotherSessionInFrontEndsTheWatch() throws {
        let seat = try sessions.seat()
        try seat.step(.inspect(.on, by: studio, at: sessions.at(0.5)))
        try seat.step(.activeSession(sessions.bob, why: "test", at: sessions.at(1)))
        #expect(seat.inspector == nil)
    }

    @Test func aDragIsToldWithItsFingerAndWhyTheTapFailed() throws {
        let seat = try sessions.seat()
        try seat.step(.inspect(.on, by: studio, at: sessions.at(0.5)))
        var updates: [FeedbackFrame] = []
        let inputs = SeatTests().drag("panel", at: 1, id: 7) + [.deadline(sessions.at(2))]
        for input in inputs {
            while let due = seat.nextDeadline, due < input.time {
                try seat.step(.deadline(due))
                updates += inspections(seat)
            }
            try seat.step(input)
            updates += inspections(seat)
        }
        let moving = updates.filter { !$0.fingers.isEmpty }
        #expect(!moving.isEmpty && moving.allSatisfy { $0.detail?.touches.count == 1 && $0.detail?.over == false })
        let last = try #require(updates.last?.detail)
        #expect(last.over)
        let tap = try #require(last.gestures.first { $0.name == "menu" })
        #expect(tap.state == .failed && tap.why != nil)
    }

    private func inspections(_ seat: Seat) -> [FeedbackFrame] {
        seat.effects.compactMap { if case .inspection(let frame, to: ":1.9") = $0 { frame } else { nil } }
    }
}
