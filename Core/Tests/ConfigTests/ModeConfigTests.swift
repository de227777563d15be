import Bindings
import Config
import ConfigParsing
import Gestures
import Testing

/// modes, when_locked, when_tablet, mode, mode_timeout_s, pause_s and [daemon]'s mode settings.
@Suite struct ModeConfigTests {
    func refusals(_ text: String) -> [String] {
        do {
            _ = try Configuration.parse(text, file: "test.toml")
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func modesAndSwitchesAreRead() throws {
        let config = try Configuration.parse("""
            [daemon]
            mode = "kiosk"
            modes = ["call"]
            mode_timeout_s = 60

            [[gesture]]
            name = "enter"
            type = "long-press"
            fingers = 5
            modes = ["kiosk"]
            mode = "maintenance"
            mode_timeout_s = 30

            [[gesture]]
            name = "fix"
            type = "tap"
            modes = ["maintenance", "call"]

            [[gesture]]
            name = "escape"
            type = "tap"
            fingers = 4
            modes = ["*"]
            when_locked = true
            pause_s = 0.5
            """, file: "test.toml")
        #expect(config.daemon.mode == "kiosk" && config.daemon.modeTimeoutSeconds == 60)
        #expect(config.modes == ["kiosk", "call", "maintenance"])
        #expect(config.bindings[0].actions.mode == ModeSwitch(mode: "maintenance", timeoutSeconds: 30))
        #expect(config.gestures[2].whenLocked && config.gestures[2].fires(inMode: "anything"))
        #expect(config.bindings[2].actions.pauseSeconds == 0.5)
        #expect(!config.gestures[1].fires(inMode: "kiosk"))
    }

    /// when_tablet keeps a gesture to one posture of a 2-in-1; left out, it fires in both.
    @Test func whenTabletKeepsAGestureToOnePosture() throws {
        let gestures = try Configuration.parse("""
            [[gesture]]
            name = "keyboard"
            type = "tap"
            fingers = 3
            when_tablet = true

            [[gesture]]
            name = "desk"
            type = "tap"
            fingers = 4
            when_tablet = false

            [[gesture]]
            name = "both"
            type = "tap"
            """, file: "test.toml").gestures
        #expect(gestures.map(\.whenTablet) == [true, false, nil])
        #expect(refusals("[[gesture]]\nname = \"a\"\ntype = \"tap\"\nwhen_tablet = \"yes\"\n")
                    == ["test.toml:4: error: gesture[1].when_tablet: expected true or false, found a string"])
    }

    @Test func theShippedModeExamplesAreValidOnceUncommented() throws {
        let text = try projectFile("config/gestured.toml")
        let start = try #require(text.range(of: "# Modes: a kiosk's"))
        let end = try #require(text.range(of: "# Keys, clicks and steps"))
        // The settings and tables, not the prose above them.
        let examples = text[start.lowerBound..<end.lowerBound].split(separator: "\n")
            .filter { $0.hasPrefix("# [[") || ($0.hasPrefix("# ") && $0.dropFirst(2).prefix { $0 != " " }.allSatisfy { $0.isLetter || $0 == "_" }
                                                 && $0.dropFirst(2).drop { $0 != " " }.hasPrefix(" = ")) }
        let config = try Configuration.parse(examples.map { $0.dropFirst(2) }.joined(separator: "\n"), file: "example.toml")
        #expect(config.gestures.map(\.name) == ["enter-maintenance", "maintenance-reboot", "let-touches-through"])
        #expect(config.modes == ["default", "maintenance"])
    }

    @Test func theEndsOfTheRangesAreAccepted() throws {
        for seconds in ["0.1", "86400", "86400.0"] {
            let config = try Configuration.parse("[daemon]\nmode_timeout_s = \(seconds)\n[[gesture]]\nname = \"g\"\ntype = \"tap\"\n"
                                                 + "mode = \"m\"\nmode_timeout_s = \(seconds)\npause_s = \(seconds)\n", file: "t.toml")
            #expect(config.bindings[0].actions.pauseSeconds == Double(seconds))
        }
    }

    @Test func aModeNoGestureEntersIsRefused() {
        let errors = refusals("""
            [[gesture]]
            name = "enter"
            type = "tap"
            mode = "maintenance"

            [[gesture]]
            name = "fix"
            type = "tap"
            modes = ["maintenence"]
            """)
        #expect(errors == [#"test.toml:9: error: gesture[2].modes: no gesture enters mode "maintenence" (did you mean "maintenance"?): give one mode = "maintenence", or list it in [daemon] modes for the control interface's SetMode"#])
        // The start mode needs no entering gesture; nor does one declared for SetMode.
        #expect(refusals("[daemon]\nmode = \"kiosk\"\nmodes = [\"call\"]\n[[gesture]]\nname = \"a\"\ntype = \"tap\"\nmodes = [\"kiosk\", \"call\"]\n").isEmpty)
    }

    @Test func theExtremesAreRefusedWithTheirLine() {
        let cases: [(String, String)] = [
            ("mode = \"m\"\nmode_timeout_s = 0", "mode_timeout_s: expected a number more than 0 and at most 86400 (a day), found 0"),
            ("mode = \"m\"\nmode_timeout_s = -1", "found -1"),
            ("mode = \"m\"\nmode_timeout_s = 86401", "found 86401"),
            ("mode = \"m\"\nmode_timeout_s = 1e308", "at most 86400"),
            ("mode = \"m\"\nmode_timeout_s = nan", "at most 86400"),
            ("pause_s = 0", "pause_s: expected a number more than 0"),
            ("pause_s = 5e-324", "pause_s: expected at least 0.1 (a tenth of a second), found 5e-324"),
            ("mode = \"m\"\nmode_timeout_s = 0.09", "mode_timeout_s: expected at least 0.1"),
            ("pause_s = inf", "at most 86400"),
            ("pause_s = \"10\"", "pause_s: expected a number"),
            ("mode_timeout_s = 5", "mode_timeout_s: goes with mode"),
            ("mode = \"*\"", "\"*\" is every mode"),
            ("mode = \"\"", "mode: empty"),
            ("mode = \"a\\nb\"", "control character"),
            ("modes = []", "modes: empty"),
            ("modes = [\"\"]", "modes: holds an empty name"),
            ("modes = \"default\"", "modes: expected an array of strings"),
            ("when_locked = 1", "when_locked: expected true or false"),
        ]
        for (settings, expected) in cases {
            let errors = refusals("[[gesture]]\nname = \"g\"\ntype = \"tap\"\n\(settings)\n")
            let line = 3 + settings.split(separator: "\n").count  // the setting's own, the last
            #expect(errors.contains { $0.contains(expected) && $0.hasPrefix("test.toml:\(line):") }, "\(settings): \(errors)")
        }
        for (settings, expected) in [("mode = \"*\"", "every mode"), ("modes = [\"*\"]", "not one of them"),
                                     ("mode_timeout_s = 0", "more than 0"), ("mode_timeout_s = 1e9", "at most 86400")] {
            let errors = refusals("[daemon]\n\(settings)\n")
            #expect(errors.contains { $0.contains(expected) && $0.hasPrefix("test.toml:2:") }, "\(settings): \(errors)")
        }
    }
}
