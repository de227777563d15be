import Bindings
import Config
import ConfigParsing
import Gestures
import Pipeline
import Testing
import TouchCore

/// The mode, its timeout, the pause and the lock as time and callers change them.
@Suite struct ModeControllerTests {
    let config = try! Configuration.parse("""
        [daemon]
        mode_timeout_s = 10
        modes = ["call"]
        [[gesture]]
        name = "enter"
        type = "tap"
        mode = "maintenance"
        mode_timeout_s = 2
        [[gesture]]
        name = "fix"
        type = "tap"
        modes = ["maintenance"]
        """, file: "t.toml")

    func at(_ seconds: Double) -> Timestamp { Timestamp(seconds: seconds) }

    @Test func eachGestureStartsTheTimeoutAgain() {
        var control = ModeController(config)
        let enter = Action.mode(binding: "enter", ModeSwitch(mode: "maintenance", timeoutSeconds: 2))
        #expect(control.perform(enter, at: at(0))?.kind == .mode(from: "default", to: "maintenance"))
        #expect(control.nextDeadline == at(2))
        control.gestureFired(at: at(1.5))
        #expect(control.advance(to: at(3)).isEmpty)
        #expect(control.advance(to: at(3.5)).map(\.kind) == [.mode(from: "maintenance", to: "default")])
        #expect(control.nextDeadline == nil)
        control.gestureFired(at: at(4))  // in the start mode, nothing runs out
        #expect(control.nextDeadline == nil)
    }

    @Test func setModeTakesTheDaemonsTimeoutAndRefusesUnknownModes() throws {
        var control = ModeController(config)
        #expect(try control.setMode("call", at: at(0), why: "bus")?.reason == "bus")
        #expect(control.nextDeadline == at(10))
        #expect(try control.setMode("call", at: at(1), why: "bus") == nil)  // no change; the timeout starts again
        #expect(control.nextDeadline == at(11))
        #expect(throws: ControlRefusal.unknownMode("nope", known: ["default", "call", "maintenance"])) {
            try control.setMode("nope", at: at(2), why: "bus")
        }
        #expect(control.gate.mode == "call")
    }

    @Test func aPauseEndsWhenItRunsOutOrIsResumedAndALaterOneReplacesIt() throws {
        var control = ModeController(config)
        _ = try control.pause(checking: 5, at: at(0), why: "bus")
        _ = try control.pause(checking: 30, at: at(1), why: "bus")
        #expect(control.gate.paused && control.nextDeadline == at(31))
        #expect(control.advance(to: at(6)).isEmpty)
        #expect(control.resume(why: "bus")?.kind == .resumed)
        #expect(control.resume(why: "bus") == nil && control.nextDeadline == nil)
        #expect(throws: ControlRefusal.pauseOutOfRange(0)) { try control.pause(checking: 0, at: at(7), why: "bus") }
        #expect(throws: ControlRefusal.pauseOutOfRange(86_401)) { try control.pause(checking: 86_401, at: at(7), why: "bus") }
    }

    @Test func aReloadWithoutTheModeReturnsToTheStartMode() throws {
        var control = ModeController(config)
        _ = try control.setMode("maintenance", at: at(0), why: "bus")
        let smaller = try Configuration.parse("[[gesture]]\nname = \"a\"\ntype = \"tap\"\n", file: "t.toml")
        #expect(control.reconfigure(smaller, at: at(1))?.kind == .mode(from: "maintenance", to: "default"))
        #expect(control.modes == ["default"] && control.nextDeadline == nil)
    }

    @Test func theLockIsSaidOnlyWhenItChanges() {
        var control = ModeController(config)
        #expect(control.setLocked(false, why: "logind") == nil)
        #expect(control.setLocked(true, why: "logind")?.kind == .locked)
        #expect(control.setLocked(true, why: "logind") == nil)
        #expect(control.gate == GestureGate(mode: "default", locked: true))
    }
}
