import Bindings
import Config
import ConfigDocument
import ConfigParsing
import ConfigSyntax
import Gestures
import Pipeline
import Testing
import TouchCore

/// The system service's sessions: whose gestures are in force, who may hand them over,
/// and where a user's commands go; beyond what the seat fixtures show whole.
@Suite struct SessionsTests {
    let alice = SeatSession(id: "/org/freedesktop/login1/session/_31", user: 1000)
    let bob = SeatSession(id: "/org/freedesktop/login1/session/_32", user: 1001)
    let machine = "[daemon]\nbus = \"none\"\n\n[[gesture]]\nname = \"menu\"\ntype = \"tap\"\ncommand = \"echo menu\"\n"

    func push(_ text: String, file: String = "user.toml") -> UserPush {
        UserPush(file: file, text: text, document: ParseOutcome(parsing: text).encoded)
    }

    func at(_ seconds: Double) -> Timestamp { Timestamp(seconds: seconds) }

    /// A seat with one panel, the machine's configuration, and alice's session in front.
    func seat(_ toml: String? = nil) throws -> Seat {
        let seat = Seat(config: try Configuration.parse(toml ?? machine, file: "gestured.toml", keyCodes: GateAtOnceTests.keyCodes),
                        keyCodes: { GateAtOnceTests.keyCodes })
        try seat.step(.appeared(SeatDevice(node: "panel", description: SeatTests().panel), at: at(0)))
        try seat.step(.activeSession(alice, why: "test", at: at(0)))
        return seat
    }

    /// The gestures recognized and what went to an agent, in order.
    func play(_ seat: Seat, _ inputs: [SeatInput]) throws -> [String] {
        try seat.play(inputs) { effect in
            switch effect {
            case .step(_, _, let step): step.events.map { "\($0.name) \($0.phase.rawValue)" }
            case .run(let command): ["run \(command.binding)"]
            case .toAgent(let action): ["agent \(action.agent) \(action.binding)"]
            default: []
            }
        }
    }

    func tap(at seconds: Double) -> [SeatInput] {
        SeatTests().tap(at: seconds, id: Int32(seconds * 10) + 1).map { .event(node: "panel", $0) } + [.deadline(at(seconds + 1))]
    }

    @Test func theMachinesGesturesComeFirstAndAUsersNamedAsOneIsLeftOut() throws {
        let machine = try Configuration.parse(self.machine + "\n[[gesture]]\nname = \"shared\"\ntype = \"checkmark\"\n", file: "m.toml")
        let user = try Configuration.parse("[daemon]\nmodes = [\"mine\"]\nmode_timeout_s = 30\n\n[[gesture]]\nname = \"shared\"\ntype = \"tap\"\n\n[[gesture]]\nname = \"own\"\ntype = \"tap\"\nfingers = 2\nmodes = [\"mine\"]\n",
                                           file: "u.toml", scope: .user)
        let (merged, leftOut) = machine.merging(user, owner: .session("c1"))
        #expect(merged.gestures.map(\.name) == ["menu", "shared", "own"])
        #expect(merged.bindings.map(\.gesture) == ["menu", "shared", "own"])
        #expect(merged.bindings.map(\.owner) == [.machine, .machine, .session("c1")])
        #expect(leftOut == ["shared"])
        #expect(merged.daemon.modes == ["mine"])
        #expect(merged.daemon.mode == "default")
        #expect(merged.daemon.modeTimeoutSeconds == 30)
    }

    @Test func whereTheMachinesAndAUsersTakeTheSameTouchesTheMachinesFires() throws {
        let seat = try seat()
        try seat.step(.push(push("[[gesture]]\nname = \"mine\"\ntype = \"tap\"\ncommand = \"echo mine\"\n"),
                            by: BusPeer(name: ":1.5", uid: 1000, session: nil), at: at(0.1)))
        let out = try play(seat, tap(at: 1))
        #expect(out.contains("menu recognized") && out.contains("run menu"))
        #expect(!out.contains { $0.hasPrefix("mine") || $0.contains(" mine") })
    }

    @Test func onlyTheSessionInFrontsUserFromThatSessionOrNoneHandsOver() throws {
        let seat = try seat()
        let text = "[[gesture]]\nname = \"mine\"\ntype = \"tap\"\nfingers = 2\ncommand = \"echo mine\"\n"
        for (peer, taken) in [(BusPeer(name: ":1.1", uid: 1001, session: nil), false),                 // another user
                              (BusPeer(name: ":1.2", uid: 1000, session: bob.id), false),              // a process of another session
                              (BusPeer(name: ":1.3", uid: 1000, session: "/org/freedesktop/login1/session/_33"), false),  // her other session
                              (BusPeer(onTheSessionBus: ":1.4"), false),                               // a user's own bus says nothing here
                              (BusPeer(name: ":1.5", uid: 1000, session: alice.id), true),             // her session
                              (BusPeer(name: ":1.6", uid: 1000, session: nil), true)] {                // her own services
            var refusal: ControlRefusal?
            do { try seat.step(.push(push(text), by: peer, at: at(0.1))) } catch { refusal = error }
            #expect((refusal == nil) == taken, "\(peer)")
            if !taken { #expect(refusal == .notTheActiveSession) }
        }
        #expect(seat.sessionInFront?.gestures == 1)
    }

    @Test func fourHandOversAtOnceThenOneASecond() throws {
        let seat = try seat()
        let peer = BusPeer(name: ":1.5", uid: 1000, session: nil)
        func handOver(at seconds: Double) -> Bool {
            (try? seat.step(.push(push("[[gesture]]\nname = \"mine\"\ntype = \"tap\"\nfingers = 2\n"), by: peer, at: at(seconds)))) != nil
        }
        #expect((0..<6).map { _ in handOver(at: 1) } == [true, true, true, true, false, false])
        #expect(handOver(at: 1.5) == false)
        #expect(handOver(at: 2.01) == true)
        #expect(handOver(at: 2.02) == false)
    }

    /// What decides whether the bus's edge reads a hand-over's arguments at all: the
    /// caller and the pace, never what it sent; and what it hands over unread or oversize
    /// is refused for that, the one in force staying.
    @Test func aHandOverIsLookedAtOnlyFromTheSessionInFrontWithinItsPace() throws {
        let seat = try seat()
        let her = BusPeer(name: ":1.5", uid: 1000, session: nil), other = BusPeer(name: ":1.9", uid: 1001, session: nil)
        func refusal(_ push: UserPush, by peer: BusPeer, at seconds: Double) -> ControlRefusal? {
            do { try seat.step(.push(push, by: peer, at: at(seconds))) } catch { return error }
            return nil
        }
        #expect(!seat.looksAtPush(from: other, at: at(1)))
        #expect(refusal(.unread, by: other, at: 1) == .notTheActiveSession)
        #expect(seat.looksAtPush(from: her, at: at(1)))
        #expect(refusal(.unread, by: her, at: 1) == .tooManyPushes, "an unread one takes none of her pace")
        #expect(refusal(UserPush(file: "big.toml", oversize: (.text, nil)), by: her, at: 1)
            == .configurationTooLarge(what: "text", bytes: nil, most: UserPush.longestText))
        #expect(refusal(push(String(repeating: "#", count: UserPush.longestText + 1)), by: her, at: 1)
            == .configurationTooLarge(what: "text", bytes: UserPush.longestText + 1, most: UserPush.longestText))
        #expect(refusal(UserPush(file: "big.toml", oversize: (.document, 1 << 25)), by: her, at: 1)
            == .configurationTooLarge(what: "parsed document", bytes: 1 << 25, most: UserPush.longestDocument))
        #expect(refusal(push("[[gesture]]\nname = \"mine\"\ntype = \"tap\"\nfingers = 2\n"), by: her, at: 1) == nil)
        #expect(!seat.looksAtPush(from: her, at: at(1)), "four taken at once: the next is not read")
        #expect(seat.looksAtPush(from: her, at: at(2.01)))
        #expect(seat.sessionInFront?.gestures == 1)
    }

    @Test func aUsersCommandGoesToTheAgentThatHandedItOverAndNoneIsSkipped() throws {
        let seat = try seat()
        try seat.step(.push(push("[[gesture]]\nname = \"mine\"\ntype = \"tap\"\nfingers = 2\ncommand = \"echo mine\"\n"),
                            by: BusPeer(name: ":1.6", uid: 1000, session: nil), at: at(0.1)))
        var w = EventWriter(at: 1)
        for slot: Int32 in [0, 1] {
            w.abs(AbsCode.mtSlot, slot)
            w.abs(AbsCode.mtTrackingID, 10 + slot)
            w.abs(AbsCode.mtPositionX, 1000 + slot * 400)
            w.abs(AbsCode.mtPositionY, 1000)
        }
        w.syn()
        w.time = at(1.05)
        for slot: Int32 in [0, 1] {
            w.abs(AbsCode.mtSlot, slot)
            w.abs(AbsCode.mtTrackingID, -1)
        }
        w.syn()
        let twoFingers = w.events.map { SeatInput.event(node: "panel", $0) } + [.deadline(at(2))]
        #expect(try play(seat, twoFingers).contains("agent :1.6 mine"))
        try seat.step(.peerLeft(name: ":1.6", at: at(2.5)))
        #expect(!(try play(seat, twoFingers.map { Self.later($0, by: 2) })).contains { $0.hasPrefix("agent") || $0 == "run mine" })
        #expect(seat.sessionInFront?.agent == false)
    }

    @Test func anotherSessionInFrontPutsItsUsersGesturesInForceAndForgetsTheLeavingOnesReport() throws {
        let seat = try seat()
        try seat.step(.push(push("[[gesture]]\nname = \"mine\"\ntype = \"tap\"\nfingers = 2\n"),
                            by: BusPeer(name: ":1.6", uid: 1000, session: nil), at: at(0.1)))
        try seat.step(.reportedApp(AppInFront(appID: "firefox", source: "test"), by: BusPeer(name: ":1.6", uid: 1000, session: nil),
                                   why: "test", at: at(0.2)))
        #expect(seat.config.gestures.map(\.name) == ["menu", "mine"])
        #expect(seat.control.gate.app?.appID == "firefox")
        try seat.step(.activeSession(bob, why: "test", at: at(1)))
        #expect(seat.config.gestures.map(\.name) == ["menu"])
        #expect(seat.control.gate.app == nil)
        try seat.step(.activeSession(alice, why: "test", at: at(2)))
        #expect(seat.config.gestures.map(\.name) == ["menu", "mine"])
    }

    @Test func whereTheWindowsAreIsTakenFromTheSessionInFrontAloneAndForgottenWhenItLeaves() throws {
        let seat = try seat()
        let layout = WindowLayout(screen: .init(x: 0, y: 0, width: 100, height: 100),
                                  windows: [WindowLayout.Window(frame: .init(x: 0, y: 0, width: 50, height: 100), app: AppInFront(appID: "firefox", source: "kwin"))],
                                  source: "kwin")
        let hers = BusPeer(name: ":1.6", uid: 1000, session: nil), his = BusPeer(name: ":1.7", uid: 1001, session: nil)
        #expect(throws: ControlRefusal.notTheActiveSession) {
            try seat.step(.reportedWindows(layout, by: his, why: "test", at: self.at(0.1)))
        }
        #expect(seat.control.gate.windows == nil)
        try seat.step(.reportedWindows(layout, by: hers, why: "test", at: at(0.2)))
        #expect(seat.control.gate.windows == layout)
        try seat.step(.activeSession(bob, why: "test", at: at(1)))
        #expect(seat.control.gate.windows == nil, "alice's windows are not bob's")
        try seat.step(.reportedWindows(layout, by: his, why: "test", at: at(1.1)))
        #expect(seat.control.gate.windows == layout)
        try seat.step(.peerLeft(name: ":1.7", at: at(1.2)))
        #expect(seat.control.gate.windows == nil, "what a reporter said goes with it")
    }

    static func later(_ input: SeatInput, by seconds: Double) -> SeatInput {
        switch input {
        case .event(let node, var event):
            event.time = Timestamp(seconds: event.time.seconds + seconds)
            return .event(node: node, event)
        case .deadline(let time): return .deadline(Timestamp(seconds: time.seconds + seconds))
        default: return input
        }
    }
}
