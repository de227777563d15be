import Bindings
import Config
import ConfigParsing
import Gestures
import Pipeline
import Testing
import TouchCore

/// The touch lock: what fires under it, how it is set and ended, and what a file may say.
@Suite struct TouchLockTests {
    static let config = """
        [daemon]
        isolate = true
        [[gesture]]
        name = "unlock"
        type = "long-press"
        fingers = 5
        touch_lock = "toggle"
        [[gesture]]
        name = "emergency"
        type = "long-press"
        fingers = 2
        when_locked = true
        [[gesture]]
        name = "tap"
        type = "tap"
        """

    @Test func onlyTheGesturesThatUnlockFireUnderItPausedOrLockedOrNot() throws {
        let gestures = try Configuration.parse(Self.config, file: "t.toml").gestures
        var gate = GestureGate(mode: "default", touchLocked: true)
        #expect(gate.admitted(gestures).map(\.name) == ["unlock"])
        gate.paused = true
        gate.locked = true
        #expect(gate.admitted(gestures).map(\.name) == ["unlock"])
        #expect(gate.exclusion(of: gestures[2]) == "the touch lock is on")
        gate.touchLocked = false
        #expect(gate.admitted(gestures).isEmpty, "paused: none")
    }

    @Test func aGestureLocksUnlocksAndTogglesIt() throws {
        var control = ModeController(try Configuration.parse(Self.config, file: "t.toml"))
        let now = Timestamp(seconds: 1)
        #expect(control.perform(.touchLock(binding: "g", .unlock), at: now) == nil, "already unlocked")
        #expect(control.perform(.touchLock(binding: "g", .toggle), at: now)?.kind == .touchLocked)
        #expect(control.perform(.touchLock(binding: "g", .lock), at: now) == nil, "already locked")
        #expect(control.perform(.touchLock(binding: "g", .toggle), at: now)?.kind == .touchUnlocked)
        #expect(control.setTouchLocked(true, why: "the bus")?.kind == .touchLocked && control.gate.touchLocked)
    }

    @Test func monitorFollowsTheServicesTouchLock() throws {
        let config = try Configuration.parse(Self.config, file: "t.toml")
        let seat = Seat(config: config)
        try seat.step(.reload(config, at: Timestamp(seconds: 0)))
        var changes: [ControlChange.Kind] = []
        func hear(_ state: ServiceState, at seconds: Double) throws {
            try seat.step(.followed(state, at: Timestamp(seconds: seconds)))
            for effect in seat.effects { if case .control(let change, _) = effect { changes.append(change.kind) } }
        }
        try hear(ServiceState(touchLocked: true), at: 1)
        try hear(ServiceState(mode: "default"), at: 2)
        #expect(seat.control.gate.touchLocked, "a message without TouchLocked leaves it")
        try hear(ServiceState(touchLocked: false), at: 3)
        #expect(changes == [.touchLocked, .touchUnlocked])
    }

    @Test func aPanelThatComesWhileLockedPassesNothing() throws {
        let config = try Configuration.parse(Self.config, file: "t.toml")
        let seat = Seat(config: config)
        try seat.step(.reload(config, at: Timestamp(seconds: 0)))
        try seat.step(.request(.lockTouch(true), why: "kept through the restart", at: Timestamp(seconds: 0)))
        try seat.step(.appeared(SeatDevice(node: "a", description: SeatTests().panel), at: Timestamp(seconds: 0)))
        var twin: [InputEvent] = [], fired: [String] = []
        for event in SeatTests().tap(at: 1, id: 1) {
            try seat.step(.event(node: "a", event))
            for effect in seat.effects {
                if case .write(.twin, let events) = effect { twin += events }
                if case .step(_, _, let step) = effect { fired += step.events.map(\.name) }
            }
        }
        #expect(twin.isEmpty && fired.isEmpty, "\(twin.count) twin events, fired \(fired)")
    }

    @Test func anotherUsersSessionInFrontEndsIt() throws {
        let config = try Configuration.parse(Self.config, file: "t.toml")
        let seat = Seat(config: config)
        try seat.step(.reload(config, at: Timestamp(seconds: 0)))
        let alice = SeatSession(id: "1", user: 1000), bob = SeatSession(id: "2", user: 1001)
        try seat.step(.activeSession(alice, why: "logind", at: Timestamp(seconds: 1)))
        try seat.step(.request(.lockTouch(true), why: "the bus", at: Timestamp(seconds: 2)))
        try seat.step(.activeSession(SeatSession(id: "3", user: 1000), why: "logind", at: Timestamp(seconds: 3)))
        #expect(seat.control.gate.touchLocked, "the same user's other session: still locked")
        try seat.step(.activeSession(bob, why: "logind", at: Timestamp(seconds: 4)))
        #expect(!seat.control.gate.touchLocked)
    }
}
