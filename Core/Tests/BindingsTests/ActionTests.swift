import Bindings
import Gestures
import Testing
import TouchCore

@Suite struct ActionTests {
    func event(_ name: String, _ phase: GesturePhase, type: GestureType = .pan) -> GestureEvent {
        GestureEvent(name: name, type: type, phase: phase, time: Timestamp(microseconds: 1_500_000), fingers: 2,
                     location: Point(x: 0.25, y: 0.5), direction: .down, velocity: 120.5)
    }

    @Test func aDiscreteGestureRunsItsCommandAndSignalsWhenRecognized() {
        var table = BindingTable([Binding(gesture: "confirm", command: "echo ok", signal: true, maxRunning: 2)])
        let recognized = event("confirm", .recognized, type: .checkmark)
        let actions = table.actions(for: recognized, device: "Panel")
        #expect(actions.count == 2)
        #expect(actions.first == .signal(recognized, device: "Panel", step: nil))
        guard case .run(let command) = actions.last else {
            Issue.record("no command: \(actions)")
            return
        }
        #expect(command.binding == "confirm" && command.command == .direct(["echo", "ok"]) && command.maxRunning == 2)
        #expect(command.environment == [
            "GESTURE_NAME=confirm", "GESTURE_TYPE=checkmark", "GESTURE_PHASE=recognized", "GESTURE_TOOL=finger", "GESTURE_DIRECTION=down",
            "GESTURE_FINGERS=2", "GESTURE_X=0.2500", "GESTURE_Y=0.5000", "GESTURE_VELOCITY=120.5000", "GESTURE_DEVICE=Panel",
        ])
    }

    @Test func aContinuousGestureSignalsEveryPhaseButRunsOnlyOnItsPhases() {
        var table = BindingTable([Binding(gesture: "scroll", command: "step", signal: true, commandPhases: [.began, .ended])])
        let phases: [GesturePhase] = [.began, .changed, .changed, .ended]
        let runs = phases.map { phase in
            table.actions(for: event("scroll", phase), device: "P").filter { if case .run = $0 { true } else { false } }.count
        }
        #expect(runs == [1, 0, 0, 1])
        #expect(phases.allSatisfy { table.actions(for: event("scroll", $0), device: "P").contains(.signal(event("scroll", $0), device: "P", step: nil)) })
    }

    @Test func unboundOrQuietGesturesDoNothing() {
        var table = BindingTable([Binding(gesture: "quiet"), Binding(gesture: "ran", command: "true")])
        #expect(table.actions(for: event("other", .ended), device: "P").isEmpty)
        #expect(table.actions(for: event("quiet", .ended), device: "P").isEmpty)
        // Cancelled is never a command phase by default: a gesture that did not finish does nothing.
        #expect(table.actions(for: event("ran", .cancelled), device: "P").isEmpty)
        #expect(!table.signals)
    }
}

@Suite struct CommandFormTests {
    @Test func wordsWithoutShellSyntaxRunDirectly() {
        #expect(CommandForm("logger -t gestured zoom") == .direct(["logger", "-t", "gestured", "zoom"]))
        #expect(CommandForm("  notify-send\tConfirmed  ") == .direct(["notify-send", "Confirmed"]))
        #expect(CommandForm("/usr/local/bin/menu --open").argv == ["/usr/local/bin/menu", "--open"])
    }

    @Test func anythingAShellWouldInterpretGoesThroughIt() {
        for command in ["echo \"a b\"", "echo 'a'", "echo $GESTURE_NAME", "a > out", "a < in", "a | b", "a; b", "a && b",
                        "a &", "echo a\\ b", "a\nb", "ls *.txt", "ls ?", "ls [ab]", "echo {a,b}", "cd ~", "a # note",
                        "(a)", "! a", "X=1 a", "cd /tmp", "export A=1", "exit 1", "`a`", "if true", "for x in a", "read x"] {
            #expect(CommandForm(command) == .shell(command), "\(command)")
            #expect(CommandForm(command).argv == ["/bin/sh", "-c", command])
        }
    }

    @Test func theBindingSaysWhichAndExecGivesTheWordsExactly() {
        var binding = Binding(gesture: "g", command: "logger $GESTURE_NAME")
        let event = GestureEvent(name: "g", type: .tap, phase: .recognized, time: Timestamp(microseconds: 0), fingers: 1, location: Point(x: 0, y: 0))
        #expect(binding.command(for: event) == .shell("logger $GESTURE_NAME"))
        binding = Binding(gesture: "g")
        binding.actions.exec = ["printf", "%s\\n", "a b"]
        #expect(binding.command(for: event) == .direct(["printf", "%s\\n", "a b"]))
    }
}
