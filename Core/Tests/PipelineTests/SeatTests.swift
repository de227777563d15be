import Bindings
import Config
import ConfigParsing
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
            try seat.step(.appeared(SeatDevice(node: node, description: panel), at: Timestamp(microseconds: 0)))
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
        try seat.play(inputs) { effect in
            switch effect {
            case .step(let node, _, let step):
                step.events.map { "\(node) \(fixed($0.time.seconds, decimals: 2)) \($0.name)" }
            case .write(let device, let events):
                ["write \(device) \(events.filter { $0.type == EventType.key }.map { "\($0.code)=\($0.value)" }.joined(separator: " "))"]
            case .control(let change, let time):
                ["\(fixed(time.seconds, decimals: 2)) \(change)"]
            default:
                []
            }
        }
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

    /// What the edge performs first is what someone waits for; the commands after the
    /// bus and the devices; last what only shows: each turn in the order decided.
    @Test func theEdgeDrainsAStepInTurnsAndShowsItAsDecided() throws {
        let config = try Configuration.parse("""
            [daemon]
            idle_s = 1
            active_command = "screen-on"
            [[gesture]]
            name = "open"
            type = "tap"
            click = "left"
            """, file: "seat.toml", keyCodes: GateAtOnceTests.keyCodes)
        let seat = Seat(config: config)
        try seat.step(.reload(config, at: Timestamp(seconds: 0)))
        try seat.step(.appeared(SeatDevice(node: "a", description: panel), at: Timestamp(seconds: 0)))
        try seat.step(.deadline(Timestamp(seconds: 2)))
        func words(_ effects: some Sequence<SeatEffect>) -> [String] {
            effects.map { effect in
                switch effect {
                case .step(_, _, let step): step.events.isEmpty ? "step" : "step \(step.events.map(\.name).joined())"
                case .write(let device, _): "write \(device)"
                case .control(let change, _): "control \(change.kind.property.map { "\($0)" } ?? "-")"
                case .run(let command): "run \(command.binding)"
                case .announce: "announce"
                default: "other"
                }
            }
        }
        let touch = tap(at: 3, id: 1)
        let down = touch.prefix { $0.type != EventType.syn } + [touch.first { $0.type == EventType.syn }!]
        for event in down { try seat.step(.event(node: "a", event)) }
        #expect(words(seat.effects) == ["step", "control idle", "run active_command", "announce"])
        #expect(words(seat.effects.inDrainOrder) == ["control idle", "announce", "run active_command", "step"])
        for event in touch.dropFirst(down.count) { try seat.step(.event(node: "a", event)) }
        #expect(words(seat.effects) == ["step open", "write pointer"])
        #expect(words(seat.effects.inDrainOrder) == ["write pointer", "step open"])
    }

    /// A service logging at info reads only the steps of gestures that fired and of bugs:
    /// the seat hands it no other (a frame passed through to the twin is no step of it),
    /// and every other effect as before.
    @Test func notableStepsAloneAreShownWhenNotEveryOneIs() throws {
        let toml = "[daemon]\nisolate = true\n\n[[gesture]]\nname = \"open\"\ntype = \"tap\"\nfingers = 2\ncommand = \"true\"\n"
        let every = try seat(toml), notable = try seat(toml)
        notable.stepsShown = .notable
        var two = EventWriter(at: 1)
        for slot: Int32 in [0, 1] {
            two.abs(AbsCode.mtSlot, slot)
            two.abs(AbsCode.mtTrackingID, slot + 1)
            two.abs(AbsCode.mtPositionX, 1900 + 200 * slot)
            two.abs(AbsCode.mtPositionY, 1000)
        }
        two.syn()
        two.time = Timestamp(seconds: 1.05)
        for slot: Int32 in [0, 1] {
            two.abs(AbsCode.mtSlot, slot)
            two.abs(AbsCode.mtTrackingID, -1)
        }
        two.syn()
        let inputs = (tap(at: 0, id: 9) + two.events).map { SeatInput.event(node: "a", $0) }
        var effects: [String: [String]] = [:]
        for (name, seat) in [("every", every), ("notable", notable)] {
            effects[name] = try seat.play(inputs) { effect in
                switch effect {
                case .step(_, _, let step): ["step \(step.events.map(\.name).joined())"]
                case .write(let device, _): ["write \(device)"]
                case .run(let command): ["run \(command.binding)"]
                default: []
                }
            }
        }
        #expect(effects["notable"] == ["write twin(\"a\")", "write twin(\"a\")", "write twin(\"a\")", "step open", "run open", "write twin(\"a\")"],
                "\(effects)")
        #expect(effects["every"]?.filter { !$0.hasPrefix("step") } == effects["notable"]?.filter { !$0.hasPrefix("step") })
        #expect((effects["every"]?.filter { $0.hasPrefix("step") }.count ?? 0) > 1, "\(effects)")
    }

    @Test func logindSilentFailsClosedOnceHeardAndNeverHeardCountsAsUnlocked() throws {
        let seat = try seat("[[gesture]]\nname = \"tap\"\ntype = \"tap\"\n")
        let at = { Timestamp(seconds: $0) }
        // Never heard: unlocked, said once.
        #expect(try play(seat, [.logindSilent(why: "gone", at: at(1)), .logindSilent(why: "gone", at: at(2))])
            == ["1.00 logind says nothing (gone): the session counts as unlocked, and every gesture of the mode fires"])
        #expect(!seat.control.gate.locked)
        // Heard locked, then silent: it stays locked, said once a silence; heard again, a new silence is said.
        _ = try play(seat, [.locked(true, why: "logind", at: at(3))])
        #expect(try play(seat, [.logindSilent(why: "gone", at: at(4)), .logindSilent(why: "gone", at: at(5))])
            == ["4.00 logind says nothing (gone): the session stays locked until it answers again"])
        #expect(seat.control.gate.locked)
        _ = try play(seat, [.locked(true, why: "logind", at: at(6))])
        #expect(try play(seat, [.logindSilent(why: "gone", at: at(7))]).count == 1)
        #expect(seat.control.gate.locked)
    }

    @Test func aRefusedRequestChangesNothing() throws {
        let seat = try seat("[[gesture]]\nname = \"tap\"\ntype = \"tap\"\n")
        #expect(throws: ControlRefusal.unknownMode("nope", known: ["default"])) {
            try seat.step(.request(.setMode("nope"), why: "test", at: Timestamp(seconds: 1)))
        }
        #expect(throws: ControlRefusal.rotationOutOfRange(45)) {
            try seat.step(.request(.rotate(degrees: 45), why: "test", at: Timestamp(seconds: 1)))
        }
        #expect(throws: ControlRefusal.unknownDevice("c")) {
            try seat.step(.request(.rotatePanel(node: "c", degrees: 90), why: "test", at: Timestamp(seconds: 1)))
        }
        #expect(seat.control.gate == GestureGate(mode: "default"))
        #expect(seat.displayRotation == .upright)
    }

    @Test func aTwinThatCannotBeMadeLeavesThePanelReadBesideApplications() throws {
        let seat = Seat(config: try Configuration.parse("[daemon]\nisolate = true\n[[gesture]]\nname = \"tap\"\ntype = \"tap\"\n", file: "seat.toml"))
        var asked: [String] = []
        try seat.step(.appeared(SeatDevice(node: "a", description: panel, live: .init(kernelState: nil, isTwin: false, group: nil)),
                                at: Timestamp(microseconds: 0)))
        for effect in seat.effects { if case .isolate(let node) = effect { asked.append(node) } }
        #expect(asked == ["a"])
        #expect(seat.panel("a")?.isolated == true)
        try seat.step(.isolationFailed(node: "a", error: "Permission denied", at: Timestamp(microseconds: 1)))
        #expect(seat.panel("a")?.isolated == false)
    }

    @Test func aNewCalibrationReopensALivePanelAndTheSameOneNothing() throws {
        let seat = Seat(config: try Configuration.parse("[daemon]\nisolate = true\n[[gesture]]\nname = \"tap\"\ntype = \"tap\"\n", file: "seat.toml"))
        let live = SeatDevice.Live(kernelState: nil, isTwin: false, group: nil)
        var skewed = panel
        skewed.calibration = CalibrationMatrix(0.9, 0.05, 0.15, -0.04, 0.92, 0.06)
        try seat.step(.appeared(SeatDevice(node: "a", description: skewed, live: live), at: Timestamp(microseconds: 0)))
        try seat.step(.appeared(SeatDevice(node: "r", description: panel), at: Timestamp(microseconds: 0)))
        var effects: [SeatEffect] = []
        try seat.step(.calibrated(node: "a", skewed.calibration, at: Timestamp(seconds: 1)))
        for effect in seat.effects { effects.append(effect) }
        #expect(effects.isEmpty, "the same matrix: \(effects)")
        // A recording (a timeline's `calibrate`) is not opened again: it appears again with the matrix.
        try seat.step(.calibrated(node: "r", .identity, at: Timestamp(seconds: 1)))
        #expect(!seat.effects.contains { if case .rescan = $0 { true } else if case .letGo(_, reopen: true) = $0 { true } else { false } })
        #expect(seat.panel("r")?.device.description.calibration == .identity)
        // A finger down on the panel when udev says the new one: cancelled, the panel reopened.
        for event in tap(at: 2, id: 1).prefix(5) { try seat.step(.event(node: "a", event)) }
        try seat.step(.calibrated(node: "a", CalibrationMatrix(1, 0, 0, 0, 1, 0.01), at: Timestamp(seconds: 2.01)))
        for effect in seat.effects { effects.append(effect) }
        #expect(effects.contains { if case .letGo(node: "a", reopen: true) = $0 { true } else { false } })
        #expect(effects.contains { if case .rescan = $0 { true } else { false } })
        #expect(seat.panel("a") == nil)
    }

    /// One finger dragged 30 mm right in 0.15 s from `seconds`, on `node`.
    func drag(_ node: String, at seconds: Double, id: Int32) -> [SeatInput] {
        var w = EventWriter(at: seconds)
        w.abs(AbsCode.mtSlot, 0)
        w.abs(AbsCode.mtTrackingID, id)
        for step in 0...15 {
            w.abs(AbsCode.mtPositionX, 1000 + Int32(step) * 26)
            w.abs(AbsCode.mtPositionY, 1000)
            w.syn()
        }
        w.abs(AbsCode.mtTrackingID, -1)
        w.syn()
        return w.events.map { .event(node: node, $0) }
    }

    func pen(near: Bool, at seconds: Double) -> [SeatInput] {
        let t = Timestamp(seconds: seconds)
        return [.event(node: "pen", InputEvent(time: t, type: EventType.key, code: KeyCode.btnToolPen, value: near ? 1 : 0)),
                .event(node: "pen", InputEvent(time: t, type: EventType.syn, code: SynCode.report, value: 0))]
    }

    @Test func aPalmStaysSilencedUntilTheFadeAfterItsPenLeftOrWentAway() throws {
        let seat = try seat("""
            [daemon]
            palm_after_pen_ms = 300
            [[gesture]]
            name = "pan"
            type = "pan"
            """)
        let penDevice = try recording(PenTests.penDescription + "E: 0.000000 0000 0000 0\n").description
        try seat.step(.appeared(SeatDevice(node: "pen", description: penDevice), at: Timestamp(microseconds: 0)))
        func pans(_ inputs: [SeatInput]) throws -> Int { try play(seat, inputs).filter { $0.hasSuffix(" pan") }.count }

        #expect(try pans(drag("a", at: 0.5, id: 1)) > 0)  // before any pen
        try _ = play(seat, pen(near: true, at: 1))
        #expect(seat.panel("a")?.palm == .penNear && seat.panel("b")?.palm == .penNear)
        #expect(try pans(drag("a", at: 1.5, id: 2)) == 0)
        try _ = play(seat, pen(near: false, at: 2))
        #expect(seat.nextDeadline == Timestamp(seconds: 2.3))
        #expect(try pans(drag("a", at: 2.1, id: 3)) == 0)  // within the fade
        #expect(try pans(drag("a", at: 3, id: 4)) > 0 && seat.panel("a")?.palm == .free)

        // The pen unplugged while near: as if it left then.
        try _ = play(seat, pen(near: true, at: 4))
        try seat.step(.gone(node: "pen", why: "unplugged", at: Timestamp(seconds: 4.5)))
        #expect(seat.panel("b")?.palm == .fading(until: Timestamp(seconds: 4.8)))
        #expect(try pans(drag("b", at: 4.6, id: 5)) == 0)
        #expect(try pans(drag("b", at: 5, id: 6)) > 0)
    }

    /// A user's own daemon while another session is in front of the seat: a pan under way
    /// on a live panel ends cancelled and the panel is let go; one appearing meanwhile is
    /// not opened; back in front, the devices present are offered again and read. Said
    /// twice is a change once.
    @Test func anotherSessionInFrontLetsEveryLivePanelGoUntilThisOneIsBack() throws {
        let seat = Seat(config: try Configuration.parse("[[gesture]]\nname = \"pan\"\ntype = \"pan\"\n", file: "seat.toml"))
        let live = SeatDevice.Live(kernelState: nil, isTwin: false, group: nil)
        try seat.step(.appeared(SeatDevice(node: "a", description: panel, live: live), at: Timestamp(microseconds: 0)))
        let dragging = drag("a", at: 1, id: 1)
        var out = try play(seat, Array(dragging.prefix(20)))
        #expect(out.contains { $0.hasSuffix(" pan") }, "\(out)")
        var effects: [String] = []
        for inFront in [false, false] {
            try seat.step(.sessionInFront(inFront, why: "logind", at: Timestamp(seconds: 1.1)))
            for effect in seat.effects {
                switch effect {
                case .step(_, _, let step): effects += step.events.map { "\($0.name) \($0.phase)" }
                case .letGo(let node, _): effects.append("let go \(node)")
                case .control(let change, _): effects.append("\(change.kind)")
                default: break
                }
            }
        }
        #expect(effects == ["session(inFront: false)", "pan cancelled", "let go a"], "\(effects)")
        #expect(seat.presence == .away && seat.panels.isEmpty)
        out = try play(seat, Array(dragging.dropFirst(20)))
        #expect(out.isEmpty, "\(out)")

        var ignored: [PanelUse.IgnoredBecause] = []
        try seat.step(.appeared(SeatDevice(node: "b", description: panel, live: live), at: Timestamp(seconds: 2)))
        for effect in seat.effects {
            if case .ignored(_, let why) = effect { ignored.append(why) }
        }
        #expect(ignored == [.anotherSession] && seat.panel("b") == nil)

        var rescans = 0
        try seat.step(.sessionInFront(true, why: "logind", at: Timestamp(seconds: 3)))
        for effect in seat.effects { if case .rescan = effect { rescans += 1 } }
        #expect(rescans == 1 && seat.presence == .inFront)
        try seat.step(.appeared(SeatDevice(node: "b", description: panel, live: live), at: Timestamp(seconds: 3)))
        #expect(try play(seat, drag("b", at: 4, id: 2)).contains { $0.hasSuffix(" pan") })
    }

    /// A replay's panels are recordings, never let go: their touches under way are
    /// cancelled, and those that come while another session is in front are not taken.
    @Test func anotherSessionInFrontTakesNoTouchOfARecording() throws {
        let seat = try seat("[[gesture]]\nname = \"tap\"\ntype = \"tap\"\n")
        try seat.step(.sessionInFront(false, why: "the timeline", at: Timestamp(seconds: 0.5)))
        #expect(try play(seat, tap(at: 1, id: 1).map { .event(node: "a", $0) } + [.deadline(Timestamp(seconds: 2))]).isEmpty)
        #expect(seat.panels.count == 2)
        try seat.step(.sessionInFront(true, why: "the timeline", at: Timestamp(seconds: 2.5)))
        let fired = try play(seat, tap(at: 3, id: 2).map { .event(node: "a", $0) } + [.deadline(Timestamp(seconds: 4))])
        #expect(fired.contains { $0.hasSuffix(" tap") }, "\(fired)")
    }

    @Test func aReloadThatIgnoresAPanelLetsItGoAndCancelsItsTouches() throws {
        let seat = try seat("[[gesture]]\nname = \"tap\"\ntype = \"tap\"\n")
        let down = tap(at: 0, id: 1).prefix(5).map { SeatInput.event(node: "a", $0) }
        _ = try play(seat, Array(down))
        let ignoring = try Configuration.parse("[[device]]\nname = \"Panel\"\nignore = true\n[[gesture]]\nname = \"tap\"\ntype = \"tap\"\n",
                                               file: "seat.toml")
        var letGo: [String] = [], cancelled = 0
        try seat.step(.reload(ignoring, at: Timestamp(seconds: 0.02)))
        for effect in seat.effects {
            if case .letGo(let node, let reopen) = effect, !reopen { letGo.append(node) }
            if case .step(_, _, let step) = effect, case .cancel = step.input { cancelled += step.frame?.touches.count ?? 0 }
        }
        #expect(letGo.sorted() == ["a", "b"])
        #expect(cancelled == 1)
        #expect(seat.panels.isEmpty)
    }
}

/// Random seats: events on two panels mixed with every other input at random moments
/// (mid-gesture, mid-reload, panels coming and going). After every step the seat's next
/// deadline is its panels' earliest (what it keeps without asking them each event), and
/// nothing is left under way once the touches are gone.
@Suite struct SeatRandomTests {
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let first = """
        [daemon]
        modes = ["other"]
        [[gesture]]
        name = "double"
        type = "tap"
        taps = 2
        [[gesture]]
        name = "hold"
        type = "long-press"
        [[gesture]]
        name = "swipe"
        type = "swipe"
        fingers = 2
        mode = "other"
        [[gesture]]
        name = "pan"
        type = "pan"
        modes = ["other"]
        """
    static let second = "[[device]]\nname = \"Panel\"\nrotation = \"external\"\n" + first.replacingOccurrences(of: "taps = 2", with: "taps = 3")

    @Test(arguments: 0..<200)
    func theNextDeadlineIsAlwaysThePanelsEarliest(_ seed: Int) throws {
        var random = Generator(state: UInt64(seed) &+ 1)
        let configs = [try Configuration.parse(Self.first, file: "a.toml"), try Configuration.parse(Self.second, file: "b.toml")]
        let seat = Seat(config: configs[0])
        let panel = SeatTests().panel
        var time: Int64 = 0
        var ids: Int32 = 0
        for node in ["a", "b"] { try seat.step(.appeared(SeatDevice(node: node, description: panel), at: Timestamp(microseconds: 0))) }
        for _ in 0..<300 {
            time += Int64(random.next(40_000))
            let at = Timestamp(microseconds: time)
            let node = random.next(2) == 0 ? "a" : "b"
            let input: SeatInput
            switch random.next(20) {
            case 0: input = .deadline(at)
            case 1: input = .request(.setMode(["default", "other"][random.next(2)]), why: "test", at: at)
            case 2: input = .request(.pause(seconds: 1), why: "test", at: at)
            case 3: input = .request(.resume, why: "test", at: at)
            case 4: input = .locked(random.next(2) == 0, why: "test", at: at)
            case 5: input = .request(.rotatePanel(node: node, degrees: UInt32(90 * random.next(4))), why: "test", at: at)
            case 6: input = .reload(configs[random.next(2)], at: at)
            case 7: input = seat.panel(node) == nil ? .appeared(SeatDevice(node: node, description: panel), at: at) : .gone(node: node, why: "test", at: at)
            case 8: input = random.next(2) == 0 ? .displayRotated([.upright, .quarter][random.next(2)], why: "test", at: at)
                : .calibrated(node: node, random.next(2) == 0 ? nil : .identity, at: at)
            case 9, 10:
                ids += 1
                input = .event(node: node, InputEvent(time: at, type: EventType.abs, code: AbsCode.mtTrackingID, value: random.next(3) == 0 ? -1 : ids))
            case 11, 12: input = .event(node: node, InputEvent(time: at, type: EventType.abs, code: AbsCode.mtSlot, value: Int32(random.next(3))))
            case 13, 14, 15:
                let code = random.next(2) == 0 ? AbsCode.mtPositionX : AbsCode.mtPositionY
                input = .event(node: node, InputEvent(time: at, type: EventType.abs, code: code, value: Int32(random.next(2000))))
            default: input = .event(node: node, InputEvent(time: at, type: EventType.syn, code: SynCode.report, value: 0))
            }
            try? seat.step(input)
            let earliest = seat.panels.compactMap(\.pipeline.nextDeadline).min()
            #expect(seat.nextTouchDeadline == earliest, "seed \(seed) at \(time) µs after \(input)")
        }
        // The touches lifted, and time passed: nothing waits, nothing is under way.
        for panel in seat.panels { try seat.step(.ended(node: panel.node, at: Timestamp(microseconds: time + 1))) }
        try seat.step(.deadline(Timestamp(microseconds: time + 3_600_000_000)))
        #expect(seat.nextTouchDeadline == nil, "seed \(seed)")
        #expect(seat.panels.allSatisfy { !$0.pipeline.fingersDown }, "seed \(seed)")
    }
}

@Suite struct TimelineTests {
    @Test func linesAreReadInTimeOrderWithCommentsAndBlanksSkipped() throws {
        let timeline = try Timeline(parsing: "# a seat\n2 unlock\n\n1 lock   # the screen locks\n1 mode maintenance\n3 rotate 90 panel.evemu\n4 reload b.toml\n5 away\n6 back\n", path: "t")
        #expect(timeline.lines.map(\.line) == [4, 5, 2, 6, 7, 8, 9])
        #expect(timeline.lines.map(\.text) == ["1 lock", "1 mode maintenance", "2 unlock", "3 rotate 90 panel.evemu", "4 reload b.toml",
                                               "5 away", "6 back"])
        guard case .input(.locked(true, let why, let time)) = timeline.lines[0].entry else { Issue.record("not the lock"); return }
        #expect(why == "t:4" && time == Timestamp(seconds: 1))
    }

    @Test func everyWordOfTheGrammarIsReadAndWrittenBackAndTheyAreNamedWhenAWordIsNot() throws {
        for word in Timeline.grammar {
            #expect(word.example.hasPrefix(word.word + " ") || word.example == word.word)
            let read = try Timeline(parsing: "1.25 \(word.example)\n", path: "t").lines
            #expect(read.map(\.text) == ["1.25 \(word.example)"])
            if case .input(let input) = read.first?.entry { #expect(input.kind == word.gives, "\(word.example)") }
        }
        do {
            _ = try Timeline(parsing: "1 fly\n", path: "t")
            Issue.record("fly was accepted")
        } catch {
            // Every word, in the grammar's order: what the line could have said.
            let words = Timeline.grammar.map(\.word)
            #expect(words.count > 20 && words.first == "mode" && words.last == "stop")
            #expect(error.message.hasSuffix("expected " + words.dropLast().joined(separator: ", ") + " or " + words.last!), "\(error.message)")
        }
    }

    @Test func everySeatInputARecordingDoesNotGiveHasAWord() {
        let said = Set(Timeline.grammar.map(\.gives))
        for kind in SeatInput.Kind.allCases {
            #expect(said.contains(kind) != SeatInput.Kind.notWritten.contains(kind), "\(kind)")
        }
    }

    @Test func whatEachNewWordSaysIsTaken() throws {
        let text = "1 orientation right-up\n2 twin-failed panel.evemu\n3 calibrate panel.evemu none\n"
            + "4 service paused=yes locked=no touch-locked=yes mode=m rotation=180 panel=panel.evemu:270\n5 pause 0.5\n"
        let lines = try Timeline(parsing: text, path: "t").lines
        #expect(lines.map(\.text) == ["1 orientation right-up", "2 twin-failed panel.evemu refused by the timeline", "3 calibrate panel.evemu none",
                                      "4 service mode=m paused=yes locked=no touch-locked=yes rotation=180 panel=panel.evemu:270", "5 pause 0.5"])
        guard case .input(.displayRotated(.threeQuarters, _, _)) = lines[0].entry else { Issue.record("\(lines[0])"); return }
        for bad in ["1 orientation 90", "1 orientation", "1 calibrate panel.evemu 1 0 0", "1 calibrate panel.evemu nan 0 0 0 1 0",
                    "1 calibrate", "1 twin-failed", "1 service", "1 service paused=maybe", "1 service mode=a mode=b", "1 service speed=2",
                    "1 service rotation=45", "1 service panel=90", "1 service panel=:90"] {
            #expect(throws: FileError.self, "\(bad)") { _ = try Timeline(parsing: bad, path: "t") }
        }
    }

    @Test func eachMistakeIsLocated() {
        let cases: [(String, Int, String)] = [
            ("1 lock\nsoon lock\n", 2, "\"soon\" is no time"),
            ("1 mode\n", 1, "mode takes a mode's name"),
            ("1 pause five\n", 1, "pause takes seconds"),
            ("1 lock now\n", 1, "lock takes nothing"),
            ("1 away now\n", 1, "away takes nothing"),
            ("-1 lock\n", 1, "is no time"),
            ("1 rotate ninety\n", 1, "rotate takes degrees"),
            ("1 fly\n", 1, "\"fly\" is not something a timeline does"),
        ]
        for (text, line, message) in cases {
            do {
                _ = try Timeline(parsing: text, path: "t")
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.line == line && error.message.contains(message), "\(error)")
            }
        }
    }

    @Test func aPanelIsNamedByItsRecordingsPathOrFileNameAndAnUnknownOneIsLocated() throws {
        let recording = Recording(path: "dir/panel.evemu", description: DeviceDescription(name: "p"), events: [], lastEventLine: 0)
        let inputs = try SeatScript.inputs(of: try Timeline(parsing: "1 rotate 90 panel.evemu\n", path: "t"), recordings: [recording],
                                           configurations: [:])
        guard case .request(.rotatePanel(let node, 90), let why, _)? = inputs.first else {
            Issue.record("\(inputs)")
            return
        }
        #expect(node == "dir/panel.evemu" && why == "t:1")
        #expect(throws: FileError.self) {
            _ = try SeatScript.inputs(of: try Timeline(parsing: "1 rotate 90 other.evemu\n", path: "t"), recordings: [recording], configurations: [:])
        }
    }
}

extension Seat {
    /// Each input stepped, and what `say` makes of each effect of each step (as the step
    /// left the seat), in order.
    func play(_ inputs: [SeatInput], saying say: (SeatEffect) -> [String]) throws -> [String] {
        var out: [String] = []
        for input in inputs {
            try step(input)
            for effect in effects { out += say(effect) }
        }
        return out
    }
}
