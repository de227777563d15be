import Bindings
import Config
import ConfigParsing
import Gestures
import Pipeline
import Testing
import TouchCore

/// The touch that wakes a dark screen (`wake_latch`): which screen a panel belongs to, the
/// waking sequence and its guard, the twin and the keyboard, and the settings' extremes.
@Suite struct WakeLatchTests {
    static func screens(_ pairs: [(String, Bool)]) -> Screens { Screens(pairs.map { Screens.Screen(name: $0.0, lit: $0.1) }) }

    @Test func aPanelBelongsToItsOutputElseTheBuiltInScreenElseEveryScreen() {
        let laptop = Self.screens([("HDMI-A-1", true), ("eDP-1", false)])
        #expect(laptop.isDark(forOutput: nil) && laptop.name(forOutput: nil) == "eDP-1")
        #expect(!laptop.isDark(forOutput: "HDMI-A-1"))
        // A named output that is not connected: no screen known, never dark.
        #expect(!laptop.isDark(forOutput: "DP-3") && laptop.name(forOutput: "DP-3") == nil)
        // Several external screens and no rule: dark only when all are.
        let desk = Self.screens([("DP-1", false), ("HDMI-A-1", true)])
        #expect(!desk.isDark(forOutput: nil) && desk.name(forOutput: nil) == nil)
        #expect(Self.screens([("DP-1", false), ("HDMI-A-1", false)]).isDark(forOutput: nil))
        #expect(Self.screens([("Virtual-1", false)]).isDark(forOutput: nil))
        // The lid closed: the built-in screen is not in use, not dark; a panel without a
        // rule is on the screen in use (a touchscreen monitor's).
        let lidClosed = Screens([.init(name: "eDP-1", lit: false, inUse: false), .init(name: "HDMI-A-1", lit: true)])
        #expect(!lidClosed.isDark(forOutput: nil) && lidClosed.name(forOutput: nil) == "HDMI-A-1")
        #expect(lidClosed.isDark(forOutput: "eDP-1") && lidClosed.description == "eDP-1=unused HDMI-A-1=on")
        #expect(Screens([.init(name: "eDP-1", lit: true, inUse: false)]).screens.first?.lit == false)
        #expect(!Screens([]).isDark(forOutput: nil))
        for name in ["eDP-1", "LVDS-1", "DSI-1"] { #expect(Screens.Screen(name: name, lit: true).isBuiltIn) }
        for name in ["HDMI-A-1", "DP-2", "Virtual-1", "VGA-1"] { #expect(!Screens.Screen(name: name, lit: true).isBuiltIn) }
        // A peer's extremes: empty and overlong names left out, at most mostScreens kept.
        let odd = Screens([.init(name: "", lit: false), .init(name: String(repeating: "x", count: 1_000_000), lit: false),
                           .init(name: "DP-1\nforged: line", lit: false), .init(name: "HDMI A", lit: false), .init(name: "eDP-ü", lit: false)]
            + (0..<1000).map { .init(name: "DP-\($0)", lit: true) })
        #expect(odd.screens.count == Screens.mostScreens && odd.screens.first?.name == "DP-0")
    }

    static let config = """
        [daemon]
        isolate = true

        [[gesture]]
        name = "tap"
        type = "tap"
        command = "true"
        """

    /// A one-finger tap of `SeatTests().panel` at `seconds`, lifting 50 ms later.
    static func tap(at seconds: Double, node: String = "a") -> [SeatInput] {
        SeatTests().tap(at: seconds, id: 7).map { .event(node: node, $0) }
    }

    /// A finger of panel "a" put down at `from` and lifted at `to` without moving.
    static func rest(from: Double, to: Double) -> (down: [SeatInput], up: [SeatInput]) {
        var w = EventWriter(at: from)
        w.abs(AbsCode.mtSlot, 0)
        w.abs(AbsCode.mtTrackingID, 9)
        w.abs(AbsCode.mtPositionX, 1000)
        w.abs(AbsCode.mtPositionY, 1000)
        w.syn()
        let down = w.events.map { SeatInput.event(node: "a", $0) }
        w.events = []
        w.time = Timestamp(seconds: to)
        w.abs(AbsCode.mtTrackingID, -1)
        w.syn()
        return (down, w.events.map { SeatInput.event(node: "a", $0) })
    }

    static func lit(_ on: Bool, at seconds: Double, name: String = "eDP-1") -> SeatInput {
        .screens(screens([(name, on)]), why: "test", at: Timestamp(seconds: seconds))
    }

    struct Run {
        var fired: [String] = []
        var wakes: [String] = []
        var twinFrames = 0
        var keyboard: [[InputEvent]] = []
        var commands: [String] = []
        var logs: [String] = []
        var bugs: [String] = []
    }

    func run(_ inputs: [SeatInput], config: String = WakeLatchTests.config, nodes: [String] = ["a"]) throws -> Run {
        let seat = Seat(config: try Configuration.parse(config, file: "wake.toml"))
        for node in nodes {
            try seat.step(.appeared(SeatDevice(node: node, description: SeatTests().panel), at: Timestamp(microseconds: 0)))
        }
        var run = Run()
        for input in inputs + [.deadline(Timestamp(seconds: 100))] {
            try seat.step(input)
            for effect in seat.effects {
                switch effect {
                case .step(let node, _, let step):
                    run.fired += step.events.filter { $0.phase == .recognized }.map { "\(node):\($0.name)" }
                    if let why = step.wakes { run.wakes.append(why) }
                    if step.twin.contains(where: { $0.type == EventType.abs }) { run.twinFrames += 1 }
                    run.bugs += step.bugs
                case .write(.keyboard, let events): run.keyboard.append(events)
                case .write(.twin, let events): if events.contains(where: { $0.type == EventType.abs }) { run.twinFrames += 1 }
                case .run(let command): run.commands.append(command.command.text)
                case .log(_, let line): run.logs.append(line)
                default: break
                }
            }
        }
        return run
    }

    @Test func theTouchOnADarkScreenFiresNothingReachesNoTwinAndPressesWakeUp() throws {
        let dark = try run([Self.lit(false, at: 0.5)] + Self.tap(at: 1))
        #expect(dark.fired.isEmpty && dark.twinFrames == 0 && dark.bugs.isEmpty)
        #expect(dark.wakes == ["its screen (eDP-1) is dark: this touch wakes it and fires nothing"])
        #expect(dark.keyboard.count == 1)
        #expect(dark.keyboard.flatMap { $0 }.filter { $0.type == EventType.key }.map { "\($0.code)=\($0.value)" } == ["143=1", "143=0"])
        #expect(dark.logs.contains { $0.hasPrefix("a: its screen (eDP-1) is dark") })
        // Lit again: the next touch fires and reaches the twin.
        let woken = try run([Self.lit(false, at: 0.5)] + Self.tap(at: 1) + [Self.lit(true, at: 1.5)] + Self.tap(at: 2))
        #expect(woken.fired == ["a:tap"] && woken.wakes.count == 1 && woken.twinFrames > 0)
        // Lit throughout: nothing is latched.
        let lit = try run([Self.lit(true, at: 0.5)] + Self.tap(at: 1))
        #expect(lit.fired == ["a:tap"] && lit.wakes.isEmpty && lit.keyboard.isEmpty)
    }

    @Test func aTouchWithinTheGuardAfterTheWakingOneIsWakingToo() throws {
        // The waking tap lifts at 1.05 s; 200 ms of guard by default.
        let inGuard = try run([Self.lit(false, at: 0.5)] + Self.tap(at: 1) + [Self.lit(true, at: 1.1)] + Self.tap(at: 1.2))
        #expect(inGuard.fired.isEmpty && inGuard.wakes.count == 2 && inGuard.twinFrames == 0)
        #expect(inGuard.wakes.last?.hasPrefix("a touch within wake_guard_ms") == true)
        // Only the dark screen's touch presses KEY_WAKEUP.
        #expect(inGuard.keyboard.count == 1)
        let afterGuard = try run([Self.lit(false, at: 0.5)] + Self.tap(at: 1) + [Self.lit(true, at: 1.1)] + Self.tap(at: 1.3))
        #expect(afterGuard.fired == ["a:tap"])
        let noGuard = try run([Self.lit(false, at: 0.5)] + Self.tap(at: 1) + [Self.lit(true, at: 1.1)] + Self.tap(at: 1.06),
                              config: Self.config.replacingOccurrences(of: "isolate = true", with: "isolate = true\nwake_guard_ms = 0"))
        #expect(noGuard.fired == ["a:tap"])
    }

    @Test func aScreenStillDarkLongAfterItWasWokenLetsTouchesAct() throws {
        // Woken at 1 s; the screen never reads lit (the wake did not work, or a backlight's
        // record is stuck at off): within WakeLatch.givesUpMS a touch wakes it again, after it the
        // touches act, said once; lit and dark again, the latch holds anew.
        #expect(WakeLatch.givesUpMS == 5000)
        let stuck = try run([Self.lit(false, at: 0.5)] + Self.tap(at: 1) + Self.tap(at: 3) + Self.tap(at: 5.5)
                            + Self.tap(at: 6.5) + Self.tap(at: 8) + [Self.lit(true, at: 9), Self.lit(false, at: 10)] + Self.tap(at: 11))
        #expect(stuck.wakes.count == 4 && stuck.keyboard.count == 4)
        #expect(stuck.fired == ["a:tap", "a:tap"] && stuck.twinFrames > 0)
        let said = stuck.logs.filter { $0.contains("still reads dark") }
        #expect(said == ["a: eDP-1 still reads dark 5 s after a touch woke it: touches act until it reads lit (set wake_command, or wake_latch = false if the kernel's record is wrong)"])
        // A finger resting from the waking touch past the time: still that sequence, fires nothing.
        let (down, up) = Self.rest(from: 1, to: 8)
        let resting = try run([Self.lit(false, at: 0.5)] + down + up + Self.tap(at: 9))
        #expect(resting.fired == ["a:tap"] && resting.wakes.count == 1)
    }

    /// wake_guard_ms at its longest: a touch within it does not renew it, and a screen that
    /// never lights does not hold the latch through it.
    @Test func theLongestGuardEnds() throws {
        let config = Self.config.replacingOccurrences(of: "isolate = true", with: "isolate = true\nwake_guard_ms = 10000")
        // Woken at 1 s (lifted at 1.05: guarded until 11.05), lit at 1.5: taps at 5 and 9 are
        // within the guard, the one at 12 acts.
        let lit = try run([Self.lit(false, at: 0.5)] + Self.tap(at: 1) + [Self.lit(true, at: 1.5)] + Self.tap(at: 5) + Self.tap(at: 9) + Self.tap(at: 12),
                          config: config)
        #expect(lit.wakes.count == 3 && lit.fired == ["a:tap"] && lit.keyboard.count == 1)
        // Never lit: the tap at 4 is within the guard, the one at 7 is past WakeLatch.givesUpMS and acts.
        let dark = try run([Self.lit(false, at: 0.5)] + Self.tap(at: 1) + Self.tap(at: 4) + Self.tap(at: 7), config: config)
        #expect(dark.wakes.count == 2 && dark.fired == ["a:tap"])
    }

    @Test func turnedOffTheDarkScreensTouchFires() throws {
        let off = try run([Self.lit(false, at: 0.5)] + Self.tap(at: 1),
                          config: Self.config.replacingOccurrences(of: "isolate = true", with: "isolate = true\nwake_latch = false"))
        #expect(off.fired == ["a:tap"] && off.wakes.isEmpty && off.keyboard.isEmpty && off.twinFrames > 0)
    }

    @Test func aWakeCommandRunsInsteadOfTheKeyboard() throws {
        let config = Self.config.replacingOccurrences(of: "isolate = true", with: "isolate = true\nwake_command = \"wlopm --on '*'\"")
        let woken = try run([Self.lit(false, at: 0.5)] + Self.tap(at: 1), config: config)
        #expect(woken.commands == ["wlopm --on '*'"] && woken.keyboard.isEmpty && woken.fired.isEmpty)
    }

    @Test func aPanelReadBesideApplicationsFiresNothingButLeavesWakingToTheDesktop() throws {
        let beside = try run([Self.lit(false, at: 0.5)] + Self.tap(at: 1), config: Self.config.replacingOccurrences(of: "isolate = true", with: ""))
        #expect(beside.fired.isEmpty && beside.wakes.count == 1 && beside.keyboard.isEmpty)
    }

    @Test func withSeveralScreensOnlyTheDarkOnesPanelLatches() throws {
        let config = Self.config + """

            [[device]]
            name = "Panel"
            output = "HDMI-A-1"
            """
        let screens: SeatInput = .screens(Self.screens([("eDP-1", false), ("HDMI-A-1", true)]), why: "test", at: Timestamp(seconds: 0.5))
        #expect(try run([screens] + Self.tap(at: 1), config: config).fired == ["a:tap"])
        #expect(try run([screens] + Self.tap(at: 1)).fired.isEmpty)
        let external: SeatInput = .screens(Self.screens([("eDP-1", true), ("HDMI-A-1", false)]), why: "test", at: Timestamp(seconds: 0.5))
        #expect(try run([external] + Self.tap(at: 1), config: config).fired.isEmpty)
        #expect(try run([external] + Self.tap(at: 1)).fired == ["a:tap"])
    }

    /// The worst moments: the screen going dark under a resting finger, and lit again
    /// under the waking one.
    @Test func aSequenceStaysWhatItBeganAs() throws {
        let (down, up) = Self.rest(from: 1, to: 5)
        // A finger resting since before the screen went dark: it wakes nothing; the next touch does.
        let resting = try run([Self.lit(true, at: 0.5)] + down + [Self.lit(false, at: 2)] + up + Self.tap(at: 6))
        #expect(resting.wakes.count == 1 && resting.bugs.isEmpty)
        // A waking finger resting while the screen lights: the sequence fires nothing to its end.
        let waking = try run([Self.lit(false, at: 0.5)] + down + [Self.lit(true, at: 2)] + up + Self.tap(at: 6))
        #expect(waking.wakes.count == 1 && waking.fired == ["a:tap"] && waking.twinFrames > 0)
        // Unplugged mid-wake: nothing fires, nothing is left waking on a panel that comes back.
        let gone = try run([Self.lit(false, at: 0.5)] + down + [.gone(node: "a", why: "unplugged", at: Timestamp(seconds: 2))])
        #expect(gone.fired.isEmpty && gone.bugs.isEmpty)
    }

    /// A pen coming near, a lock and a reload while the waking finger rests: no bug, nothing fires.
    @Test func silencedGatedOrReloadedMidWakeNothingBreaks() throws {
        let config = try Configuration.parse(Self.config, file: "wake.toml")
        let pipeline = try TouchscreenPipeline(SeatTests().panel, config: config)
        pipeline.setScreens(Self.screens([("eDP-1", false)]))
        var bugs: [String] = [], fired: [String] = []
        func feed(_ inputs: [SeatInput]) {
            for case .event(_, let event) in inputs {
                pipeline.step(.event(event)) { step in
                    bugs += step.bugs
                    fired += step.events.map(\.name)
                }
            }
        }
        let tap = Self.tap(at: 1)
        feed(Array(tap.prefix(5)))
        #expect(pipeline.waking)
        for input: PipelineInput in [.silence(true, at: Timestamp(seconds: 1.01)), .gate(GestureGate(mode: "default", locked: true), at: Timestamp(seconds: 1.02)),
                                     .silence(false, at: Timestamp(seconds: 1.03))] {
            pipeline.step(input) { bugs += $0.bugs }
        }
        try pipeline.reload(config)
        feed(Array(tap.dropFirst(5)))
        #expect(!pipeline.waking && bugs.isEmpty && fired.isEmpty)
    }

    @Test func theSettingsExtremesAreReadOrLocated() throws {
        let daemon = try Configuration.parse("[daemon]\nwake_latch = false\nwake_guard_ms = 10000\n", file: "w.toml").daemon
        #expect(!daemon.wakeLatch && daemon.wakeGuardMS == 10_000 && daemon.wakeCommand == nil)
        #expect(try Configuration.parse("[daemon]\nwake_guard_ms = 0\n", file: "w.toml").daemon.wakeGuardMS == 0)
        #expect(try Configuration.parse("", file: "w.toml").daemon.wakeLatch)
        let refused: [(String, String)] = [
            ("[daemon]\nwake_guard_ms = 10001", "w.toml:2"),
            ("[daemon]\nwake_guard_ms = -1", "w.toml:2"),
            ("[daemon]\nwake_guard_ms = nan", "w.toml:2"),
            ("[daemon]\nwake_latch = \"yes\"", "w.toml:2"),
            ("[daemon]\nwake_command = \"  \"", "blank"),
            ("[daemon]\nwake_comand = \"x\"", "did you mean \"wake_command\""),
            ("[[device]]\nname = \"P\"\noutput = \"HDMI A 1\"", "w.toml:3"),
            ("[[device]]\nname = \"P\"\noutput = \"\"", "w.toml:3"),
            ("[[device]]\nname = \"P\"\noutput = \"\(String(repeating: "x", count: 65))\"", "w.toml:3"),
        ]
        for (text, message) in refused {
            #expect(throws: ConfigErrors.self) { try Configuration.parse(text, file: "w.toml") }
            do { _ = try Configuration.parse(text, file: "w.toml") } catch {
                #expect(error.description.contains(message), "\(text): \(error.description)")
            }
        }
    }

    @Test func theAccelerometerTurnsOnlyTheBuiltInScreensPanels() throws {
        let base = "[daemon]\nrotation = \"auto\"\n[[device]]\nname = \"P\"\n"
        #expect(try Configuration.parse(base + "output = \"HDMI-A-1\"\n", file: "w.toml").rotation(for: nil) == .automatic)
        let external = try Configuration.parse(base + "output = \"HDMI-A-1\"\n", file: "w.toml")
        #expect(external.rotation(for: external.devices.first) == .fixed(.upright))
        let builtIn = try Configuration.parse(base + "output = \"eDP-1\"\n", file: "w.toml")
        #expect(builtIn.rotation(for: builtIn.devices.first) == .automatic)
        let said = try Configuration.parse(base + "output = \"HDMI-A-1\"\nrotation = \"auto\"\n", file: "w.toml")
        #expect(said.rotation(for: said.devices.first) == .automatic)
    }

    @Test func aTimelineSetsTheScreens() throws {
        let timeline = try Timeline(parsing: "1 screens eDP-1=off HDMI-A-1=on\n2 screens none\n3 screens eDP-1=unused\n", path: "t")
        let screens = timeline.lines.map { line -> Screens? in
            guard case .input(.screens(let screens, _, _)) = line.entry else { return nil }
            return screens
        }
        #expect(screens == [Self.screens([("eDP-1", false), ("HDMI-A-1", true)]), Screens([]),
                            Screens([.init(name: "eDP-1", lit: false, inUse: false)])])
        for bad in ["1 screens", "1 screens eDP-1", "1 screens eDP-1=dim", "1 screens =on"] {
            #expect(throws: FileError.self) { try Timeline(parsing: bad, path: "t") }
        }
    }
}
