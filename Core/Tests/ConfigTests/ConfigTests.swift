import Bindings
@testable import Config
import ConfigDocument
import ConfigParsing
import ConfigSyntax
import Foundation
import Gestures
import Testing

func parse(_ text: String) throws -> Configuration { try Configuration.parse(text, file: "test.toml") }

func errors(_ text: String) -> [String] {
    do {
        _ = try parse(text)
        return []
    } catch {
        return (error as? ConfigErrors)?.errors.map(\.description) ?? ["\(error)"]
    }
}

/// The project's own files, found from this source file.
/// A file of the repository (Core/Tests/ConfigTests/ is three folders down).
func projectFile(_ path: String) throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    return try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
}

@Suite struct ConfigTests {
    @Test func aGoodConfigurationWithItsDefaults() throws {
        let config = try parse("""
            [daemon]
            bus = "session"
            user = "kiosk"

            [[region]]
            name = "top-right"
            x = [0.9, 1.0]
            y = [0, 0.1]

            [[gesture]]
            name = "confirm"
            type = "checkmark"
            region = "top-right"
            command = "notify-send ok"

            [[gesture]]
            name = "zoom"
            type = "pinch"
            min_scale_change = 0.2
            simultaneous_with = ["confirm"]
            signal = true
            on = ["began", "ended"]
            max_running = 3

            [[device]]
            name = "Atmel*"
            rotation = 90
            size_mm = [154, 86]
            gestures = ["zoom"]
            """)
        #expect(config.daemon.bus == .session && config.daemon.user == "kiosk" && config.daemon.commandTimeoutMS == 30_000)
        #expect(config.gestures.map(\.name) == ["confirm", "zoom"])
        #expect(config.gestures[0].region == Region(name: "top-right", x: 0.9...1, y: 0...0.1))
        #expect(config.gestures[0].minSizeMM == 10)
        #expect(config.gestures[1].fingers == 2 && config.gestures[1].minScaleChange == 0.2)
        #expect(config.bindings[0] == Binding(gesture: "confirm", command: "notify-send ok"))
        #expect(config.bindings[1] == Binding(gesture: "zoom", signal: true, commandPhases: [.began, .ended], maxRunning: 3))
        let rule = try #require(config.devices.first)
        #expect(rule.matches(name: "Atmel maXTouch Touchscreen", vendor: 0, product: 0))
        #expect(!rule.matches(name: "ELAN Touchscreen", vendor: 0, product: 0))
        #expect(rule.rotation == .fixed(.quarter) && rule.sizeMM?.width == 154)
        #expect(config.gestures(for: rule).map(\.name) == ["zoom"])
    }

    @Test func syntaxErrorsHaveLineAndColumn() {
        #expect(errors("[[gesture]]\nname = \"x\"\ntype = \n") == ["test.toml:3:8: error: Error while parsing key-value pair: expected value, saw '\\n'"])
    }

    /// A learned stroke's examples are bounded: their spread is found pairwise.
    @Test func aLearnedStrokeTakesAtMost20Examples() {
        let example = "\"" + String(repeating: "7f00", count: 32) + "\""
        func config(_ n: Int) -> String {
            "[[gesture]]\nname = \"s\"\ntype = \"stroke\"\ntemplates = [\(Array(repeating: example, count: n).joined(separator: ", "))]\n"
        }
        #expect(errors(config(20)).isEmpty)
        #expect(errors(config(21)).first?.hasPrefix("test.toml:4: error: gesture[1].templates: 21 examples; at most 20") == true)
    }

    /// Valid TOML whose key has a NUL (TOMLKit cuts such a key short): parsed, and refused.
    @Test func aKeyWithANulParsesAndIsRefused() {
        guard case .document(let table) = ParseOutcome(parsing: "\"\\u0000\" = 1\n[\"a\\u0000b\"]\n") else {
            Issue.record("not parsed")
            return
        }
        #expect(table.keys.allSatisfy { $0.hasSuffix("\u{0}") } && table.keys.count == 2)
        #expect(errors("\"\\u0000\" = 1\n").count == 1)
    }

    @Test func everyProblemIsReportedWithItsLineAndKeyPath() {
        let found = errors("""
            [daemon]
            bus = "sytem"

            [[gesture]]
            name = "a"
            type = "swipe"
            fingres = 3
            taps = 2

            [[gesture]]
            name = "b"
            type = "chevron"
            direction = "rigth"
            requires_failure_of = ["b", "zz"]

            [[gesture]]
            name = "a"
            type = "tap"
            on = ["ended"]
            """)
        #expect(found == [
            #"test.toml:2: error: daemon.bus: expected one of system, session, none, found "sytem" (did you mean "system"?)"#,
            #"test.toml:7: error: gesture[1].fingres: unknown setting (did you mean "fingers"?)"#,
            "test.toml:8: error: gesture[1].taps: a swipe gesture has no taps; it takes fingers, direction, angle, min_distance_mm, min_speed_mm_s",
            #"test.toml:13: error: gesture[2].direction: expected one of right, left, up, down for a chevron, found "rigth" (did you mean "right"?)"#,
            #"test.toml:14: error: gesture[2].requires_failure_of: no gesture is named "zz""#,
            #"test.toml:14: error: gesture[2].requires_failure_of: "b" requires its own failure, so it could never be recognized"#,
            #"test.toml:17: error: gesture[3].name: "a" is already the name of another gesture (gesture[1])"#,
            "test.toml:19: error: gesture[3].on: only continuous gestures (pan, pinch, rotate) have phases; a tap gesture acts when recognized",
        ])
    }

    @Test func missingAndWronglyTypedValues() {
        #expect(errors("[[gesture]]\ntype = \"tap\"\n") == ["test.toml:1: error: gesture[1].name: missing; every gesture needs one"])
        #expect(errors("[[gesture]]\nname = \"e\"\ntype = \"edge-swipe\"\n") == ["test.toml:1: error: gesture[1].edge: missing; an edge-swipe gesture needs one: one of left, right, top, bottom"])
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\ntaps = 2.5\n") == ["test.toml:4: error: gesture[1].taps: expected an integer, found a number"])
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\nregion = \"nowhere\"\n") == [#"test.toml:4: error: gesture[1].region: no [[region]] is named "nowhere""#])
        #expect(errors("[[device]]\nrotation = 45\n") == [
            #"test.toml:1: error: device[1]: needs a name (a glob like "ELAN*") or an id ("vendor:product") to match devices"#,
            #"test.toml:2: error: device[1].rotation: expected 0, 90, 180 or 270 (degrees clockwise), "auto" (the accelerometer, through iio-sensor-proxy) or "external" (set on the bus), found 45"#,
        ])
        #expect(errors("[gestures]\n") == [#"test.toml:1: error: gestures: unknown section; expected [daemon], [[region]], [[device]] or [[gesture]] (did you mean "gesture"?)"#])
    }

    @Test func gesturesThatWaitForEachOtherAreRefusedWithTheCycleNamed() {
        #expect(errors("""
            [[gesture]]
            name = "a"
            type = "swipe"
            requires_failure_of = ["b"]

            [[gesture]]
            name = "b"
            type = "pan"
            requires_failure_of = ["a"]
            """) == ["test.toml:4: error: gesture[1].requires_failure_of: these gestures wait for each other to fail: a → b → a; when both match, none is recognized"])
        // A tap waits by itself for the double tap; a double tap that waits for the tap closes the loop.
        #expect(errors("""
            [[gesture]]
            name = "tap"
            type = "tap"

            [[gesture]]
            name = "double"
            type = "tap"
            taps = 2
            requires_failure_of = ["tap"]
            """) == ["test.toml:1: error: gesture[1].requires_failure_of: these gestures wait for each other to fail: tap → double → tap (a tap waits by itself for the taps with more taps on the same fingers and region); when both match, none is recognized"])
        // Simultaneous gestures do not wait for each other.
        #expect(errors("[[gesture]]\nname = \"tap\"\ntype = \"tap\"\nsimultaneous_with = [\"double\"]\n[[gesture]]\nname = \"double\"\ntype = \"tap\"\ntaps = 2\nrequires_failure_of = [\"tap\"]\n").isEmpty)
    }

    /// The graph search against the definition, on every small configuration of taps
    /// and swipes a seed makes: a knot is reported exactly when some gesture can follow
    /// the waits back to itself.
    @Test func waitingCyclesAreFoundExactlyWhenThereAreSome() {
        var seed: UInt64 = 0x9e3779b97f4a7c15
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        for _ in 0..<2000 {
            let count = 2 + next(6)
            var specs: [GestureSpec] = (0..<count).map { i in
                var spec = GestureSpec(name: "g\(i)", type: next(4) == 0 ? .swipe : .tap)
                spec.taps = 1 + next(3)
                spec.fingers = 1 + next(2)
                return spec
            }
            for i in specs.indices {
                for _ in 0..<next(3) { specs[i].requiresFailureOf.append("g\(next(count))") }
                if next(4) == 0 { specs[i].simultaneousWith.append("g\(next(count))") }
            }
            func waits(_ a: Int, _ b: Int) -> Bool {
                let x = specs[a], y = specs[b]
                if a == b { return false }
                if x.requiresFailureOf.contains(y.name) { return true }
                let together = x.simultaneousWith.contains(y.name) || y.simultaneousWith.contains(x.name)
                return x.type == .tap && y.type == .tap && y.taps > x.taps && y.fingers == x.fingers && !together
            }
            var reaches = (0..<count).map { a in (0..<count).map { b in waits(a, b) } }
            for k in 0..<count { for a in 0..<count { for b in 0..<count where reaches[a][k] && reaches[k][b] { reaches[a][b] = true } } }
            let knotted = (0..<count).filter { reaches[$0][$0] }
            let cycles = WaitGraph(specs).cycles()
            #expect(Set(cycles.flatMap(\.gestures)).isSubset(of: Set(knotted)))
            #expect(cycles.isEmpty == knotted.isEmpty, "\(specs.map { ($0.name, $0.type, $0.taps, $0.fingers, $0.requiresFailureOf, $0.simultaneousWith) })")
            for (cycle, _) in cycles {
                for (a, b) in zip(cycle, cycle.dropFirst() + [cycle[0]]) { #expect(waits(a, b) || reaches[a][b]) }
            }
        }
    }

    @Test func aLongKnotIsNamedShortly() {
        let text = (0..<10_000).map { "[[gesture]]\nname = \"c\($0)\"\ntype = \"swipe\"\nrequires_failure_of = [\"c\(($0 + 1) % 10_000)\"]\n" }.joined()
        #expect(errors(text) == ["test.toml:4: error: gesture[1].requires_failure_of: these gestures wait for each other to fail: c0 → c1 → c2 → c3 → c4 → c5 → c6 → c7 → c8 → c9 → … 9989 more → c9999 → c0; when all of them match, none is recognized"])
    }

    @Test func aContinuousGestureMayBeginAtTouchDownButASwipeNeedsADistance() throws {
        let pan = try parse("[[gesture]]\nname = \"p\"\ntype = \"pan\"\nmin_distance_mm = 0\n[[gesture]]\nname = \"z\"\ntype = \"pinch\"\nmin_scale_change = 0\n")
        #expect(pan.gestures.map(\.minDistanceMM).first == 0 && pan.gestures[1].minScaleChange == 0)
        // One error, once.
        #expect(errors("[[gesture]]\nname = \"s\"\ntype = \"swipe\"\nmin_distance_mm = 0\n")
            == ["test.toml:4: error: gesture[1].min_distance_mm: expected a number more than 0 and at most 10000 (10 m), found 0"])
    }

    @Test func settingsHaveUpperBoundsThatMakePhysicalSense() {
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\nmax_duration_ms = 1e16\n")
            == ["test.toml:4: error: gesture[1].max_duration_ms: expected a number more than 0 and at most 3600000 (an hour), found 1e+16"])
        #expect(errors("[[gesture]]\nname = \"p\"\ntype = \"pan\"\nmin_distance_mm = inf\n").count == 1)
        #expect(errors("[[gesture]]\nname = \"p\"\ntype = \"pan\"\nmin_distance_mm = nan\n").count == 1)
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\nmax_duration_ms = 3600000\n").isEmpty)
    }

    @Test func aPanelSizeIsBetweenAMillimetreAndTenMetres() {
        func sizeErrors(_ size: String) -> [String] { errors("[[device]]\nname = \"*\"\nsize_mm = \(size)\n") }
        #expect(sizeErrors("[1e20, 1e20]")
            == ["test.toml:3: error: device[1].size_mm: expected [width, height] in millimetres, each from 1 to 10000 (10 m), found [1e+20, 1e+20]"])
        for refused in ["[inf, inf]", "[nan, 100]", "[100, 0.5]", "[0, 0]", "[-5, 100]", "[100, 10001]"] {
            #expect(sizeErrors(refused).count == 1, "\(refused)")
        }
        #expect(sizeErrors("[1, 10000]").isEmpty && sizeErrors("[154, 86]").isEmpty)
    }

    @Test func emptyCommandsAndPhaseListsAreRefused() {
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\ncommand = \"\"\n") == ["test.toml:4: error: gesture[1].command: empty; expected a non-empty string"])
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\ncommand = \" \\t \"\n")
            == ["test.toml:4: error: gesture[1].command: blank; expected a command to run, like \"notify-send Confirmed\""])
        #expect(errors("[[gesture]]\nname = \"t\\u001b[2J\"\ntype = \"tap\"\n")
            == ["test.toml:2: error: gesture[1].name: contains a control character (U+001b); a name is one line of printable text"])
        #expect(errors("[[region]]\nname = \"a\\nb\"\n").count == 1)
        #expect(errors("[[gesture]]\nname = \"p\"\ntype = \"pan\"\ncommand = \"x\"\non = []\n")
            == ["test.toml:5: error: gesture[1].on: empty; list the phases that run the command: began, changed, ended, cancelled"])
    }

    @Test func theShippedConfigurationsAreValid() throws {
        let shipped = try parse(try projectFile("config/gestured.toml"))
        #expect(shipped.gestures.count == 10)
        // The kiosk's maintenance swipe lives in the service strip, as the comment says;
        // the maXTouch rule does not give every such panel one panel's size.
        #expect(shipped.gestures.first { $0.name == "maintenance-menu" }?.region.name == "service-strip")
        #expect(shipped.devices.allSatisfy { $0.sizeMM == nil })
        // Its commands work for the system service too, which has no session bus for notify-send.
        #expect(shipped.bindings.compactMap(\.actions.command).allSatisfy { !$0.contains("notify-send") })
        #expect(try parse(try projectFile("config/strokes-eval.toml")).gestures.map(\.name)
            == ["checkmark", "chevron-up", "chevron-down", "chevron-left", "chevron-right"])
        #expect(try parse(Configuration.defaultText).gestures.count == 10)
        // The commented learned stroke at its end is valid once uncommented.
        let text = try projectFile("config/gestured.toml")
        let start = try #require(text.range(of: "# [[gesture]]", options: .backwards))
        let uncommented = text[..<start.lowerBound] + text[start.lowerBound...].split(separator: "\n").map { $0.dropFirst(2) }.joined(separator: "\n")
        #expect(try parse(String(uncommented)).gestures.last?.templates.count == 2)
    }

    /// What the helper hands the daemon is the whole document: every value, every number
    /// to the last bit (a learned stroke's templates, 5e-324, regions, devices), and a
    /// reader that takes nothing cut short, changed or nested too deep.
    @Test func aParseOutcomeCarriesTheWholeDocument() throws {
        let text = try projectFile("config/gestured.toml")
        let start = try #require(text.range(of: "# [[gesture]]", options: .backwards))
        let learned = text[..<start.lowerBound] + text[start.lowerBound...].split(separator: "\n").map { $0.dropFirst(2) }.joined(separator: "\n")
        let extremes = """
            [daemon]
            bus = "session"
            user = "kiosk"
            command_timeout_ms = 86400000
            log_level = "debug"
            isolate = true
            max_delay_ms = 0
            [[region]]
            name = "strip"
            x = [0.1, 0.30000000000000004]
            [[device]]
            id = "0eef:7224"
            rotation = 270
            invert_x = true
            size_mm = [1, 10000]
            isolate = false
            gestures = ["t"]
            [[gesture]]
            name = "t"
            type = "tap"
            region = "strip"
            taps = 5
            max_movement_mm = 5e-324
            exec = ["logger", "a b"]
            max_running = 64
            simultaneous_with = ["e"]
            cancels_touches = false
            delays_touches_began = true
            delays_touches_ended = false
            [[gesture]]
            name = "e"
            type = "edge-swipe"
            edge = "bottom"
            edge_range = [0.25, 0.5]
            requires_failure_of = ["t"]
            signal = true
            [[gesture]]
            name = "p"
            type = "pan"
            min_distance_mm = 0
            command = "echo $GESTURE_X"
            on = ["began", "changed", "cancelled"]
            """
        for source in [String(learned), extremes, Configuration.defaultText] {
            let parsed = ParseOutcome(parsing: source)
            let outcome = try #require(ParseOutcome(decoding: parsed.encoded))
            #expect(outcome == parsed)
            #expect(try Configuration.check(outcome, text: source, file: "x.toml") == parse(source))
        }
        // Every kind of value, nested, and the extremes of numbers and strings.
        let values = ConfigTable([
            ("a", .array([.integer(.min), .integer(.max), .float(-0.0), .float(.infinity), .float(.nan), .boolean(true)])),
            ("", .table(ConfigTable([("é \u{0}\n", .string("")), ("d", .dateOrTime), ("deep", .array([.array([.table(ConfigTable())])]))]))),
        ])
        let decoded = try #require(ParseOutcome(decoding: ParseOutcome.document(values).encoded))
        guard case .document(let table) = decoded, case .array(let numbers) = table["a"] else { Issue.record("not a document"); return }
        #expect(numbers[0] == .integer(.min) && numbers[1] == .integer(.max) && numbers[3] == .float(.infinity))
        #expect(numbers[2].double?.sign == .minus && numbers[4].double?.isNaN == true)
        #expect(table[""] == values[""])

        let refused = ParseOutcome(parsing: "[[gesture]]\nname = 3\nx = = 1\n")
        guard case .notTOML(line: 3, column: _?, message: _) = refused else { Issue.record("\(refused)"); return }
        #expect(ParseOutcome(decoding: refused.encoded) == refused)
        #expect(throws: ConfigErrors.self) { try Configuration.check(refused, text: "", file: "x.toml") }
        #expect(ParseOutcome(decoding: Array("toml.hpp:15481: Assertion failed".utf8)) == nil)
        // Cut anywhere, or with a byte changed in a length, it is refused, never trusted.
        let bytes = ParseOutcome.document(values).encoded
        for end in 0..<bytes.count { #expect(ParseOutcome(decoding: Array(bytes[..<end])) == nil) }
        for i in bytes.indices {
            var changed = bytes
            changed[i] = 0xFF
            _ = ParseOutcome(decoding: changed)
        }
        // Nested past the limit: refused by the parser's side, and by the reader.
        let deep = "a = " + String(repeating: "[", count: ParseOutcome.maximumDepth + 1) + String(repeating: "]", count: ParseOutcome.maximumDepth + 1)
        guard case .notTOML = ParseOutcome(parsing: deep) else { Issue.record("\(deep.prefix(10))… was taken"); return }
        var nested = ConfigValue.integer(1)
        for _ in 0...ParseOutcome.maximumDepth { nested = .array([nested]) }
        #expect(ParseOutcome(decoding: ParseOutcome.document(ConfigTable([("a", nested)])).encoded) == nil)
    }

    @Test func deviceGlobs() throws {
        let config = try parse("[[device]]\nname = \"ELAN?Touch*\"\n[[device]]\nid = \"0eef:7224\"\nignore = true\n")
        #expect(config.devices[0].matches(name: "ELAN Touchscreen", vendor: 1, product: 2))
        #expect(!config.devices[0].matches(name: "ELAN  Touchscreen", vendor: 1, product: 2))
        #expect(config.devices[1].matches(name: "anything", vendor: 0x0eef, product: 0x7224))
        #expect(!config.devices[1].matches(name: "anything", vendor: 0x0eef, product: 0x7225))
    }

    @Test func theIdleSettingsAreChecked() {
        #expect(errors("[daemon]\nidle_command = \"off\"\n")
            == ["test.toml:2: error: daemon.idle_command: goes with idle_s, the seconds without a touch after which the seat is idle, like idle_s = 300"])
        #expect(errors("[daemon]\nidle_s = 0.5\n") == ["test.toml:2: error: daemon.idle_s: expected at least 1 (a second), found 0.5"])
        #expect(errors("[daemon]\nidle_s = 100000\n").count == 1)
        #expect(errors("[daemon]\nidle_s = 60\nidle_mode = \"*\"\n") == ["test.toml:3: error: daemon.idle_mode: \"*\" is every mode, not one to switch to"])
        #expect(errors("[daemon]\nlast_touch_interval_s = 0.01\n").count == 1)
        #expect(errors("[daemon]\nidle_s = 60\nidle_mode = \"asleep\"\n[[gesture]]\nname = \"t\"\ntype = \"tap\"\nmodes = [\"asleep\"]\n").isEmpty)
    }

    @Test func aFileThatLocksMustUnlock() {
        #expect(errors("[[gesture]]\nname = \"lock\"\ntype = \"tap\"\ntouch_lock = \"lock\"\n") == [
            "test.toml:4: error: gesture[1].touch_lock: no gesture unlocks touch, and the panel would stay locked: give one touch_lock = \"unlock\" (or make this one \"toggle\")",
        ])
        #expect(errors("[[gesture]]\nname = \"lock\"\ntype = \"tap\"\ntouch_lock = \"lock\"\n[[gesture]]\nname = \"open\"\ntype = \"tap\"\ntaps = 2\ntouch_lock = \"unlock\"\n").isEmpty)
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\ntouch_lock = \"yes\"\n").count == 1)
    }

    @Test func aPalmIsWithheldOnlyFromAnIsolatedPanel() throws {
        #expect(errors("[[device]]\nname = \"Pen*\"\nwithhold_palm = true\n") == [
            "test.toml:3: error: device[1].withhold_palm: applications get this panel's touches from gestured only when it is isolated: "
                + "add isolate = true here (or in [daemon])",
        ])
        #expect(try parse("[daemon]\nisolate = true\n[[device]]\nname = \"Pen*\"\nwithhold_palm = true\n").devices[0].withholdPalm)
        #expect(try parse("[[device]]\nname = \"Pen*\"\nisolate = true\nwithhold_palm = true\n").devices[0].withholdPalm)
        #expect(try !parse("[[device]]\nname = \"Pen*\"\n").devices[0].withholdPalm)
    }
}

@Suite struct LearnedStrokeConfigTests {
    static let template = String(repeating: "7f00", count: 16) + String(repeating: "8100", count: 16)

    @Test func aLearnedStrokeNeedsItsTemplates() throws {
        let config = try parse("[[gesture]]\nname = \"line\"\ntype = \"stroke\"\ntemplates = [\"\(Self.template)\"]\nmin_similarity = 0.9\n")
        #expect(config.gestures[0].templates.count == 1 && config.gestures[0].minSimilarity == 0.9)
        #expect(errors("[[gesture]]\nname = \"line\"\ntype = \"stroke\"\n")
            == ["test.toml:1: error: gesture[1].templates: missing; a stroke gesture needs the examples `gestured learn` writes"])
        #expect(errors("[[gesture]]\nname = \"line\"\ntype = \"stroke\"\ntemplates = [\"7f\"]\nmin_similarity = 2\n") == [
            "test.toml:4: error: gesture[1].templates: example 1 is not a template: expected 128 hex digits as `gestured learn` writes them",
            "test.toml:5: error: gesture[1].min_similarity: expected a number from 0 and at most 1 (1, a perfect match), found 2",
        ])
        #expect(errors("[[gesture]]\nname = \"c\"\ntype = \"checkmark\"\ntemplates = []\n").first?.contains("templates") == true)
    }
}

@Suite struct ExecConfigTests {
    @Test func execGivesTheWordsAndExcludesCommand() throws {
        let config = try parse("[[gesture]]\nname = \"t\"\ntype = \"tap\"\nexec = [\"printf\", \"%s\\\\n\", \"a b\"]\n")
        #expect(config.bindings[0].actions.exec == ["printf", "%s\\n", "a b"])
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\ncommand = \"x\"\nexec = [\"x\"]\n")
            == ["test.toml:5: error: gesture[1].exec: a gesture has a command or exec, not both"])
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\nexec = []\n").first?.contains("expected the program and its arguments") == true)
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\nexec = [\"a\", \"\"]\n").first?.contains("none empty") == true)
    }
}
