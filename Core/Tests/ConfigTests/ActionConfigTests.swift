import Bindings
import Config
import ConfigParsing
import Gestures
import Testing

/// keys, click, scroll and steps as the configuration takes them; key names from a table
/// the test gives (the daemon's come from libevdev).
@Suite struct ActionConfigTests {
    static let keyCodes = KeyCodes(byName: ["KEY_LEFTCTRL": 29, "KEY_LEFTALT": 56, "KEY_RIGHT": 106, "KEY_C": 46, "KEY_V": 47,
                                            "KEY_VOLUMEUP": 115, "KEY_VOLUMEDOWN": 114, "KEY_ENTER": 28, "BTN_LEFT": 0x110,
                                            "KEY_LEFTMETA": 125])

    func parsed(_ text: String) throws -> Configuration {
        try Configuration.parse(text, file: "test.toml", keyCodes: Self.keyCodes)
    }

    func refusals(_ text: String) -> [String] {
        do {
            _ = try parsed(text)
            return []
        } catch {
            return (error as? ConfigErrors)?.errors.map(\.description) ?? ["\(error)"]
        }
    }

    @Test func keysAreChordsOfKernelNamesAndModifiers() throws {
        let config = try parsed("""
            [[gesture]]
            name = "next"
            type = "swipe"
            keys = "ctrl+alt+Right"

            [[gesture]]
            name = "copy-paste"
            type = "checkmark"
            keys = ["CTRL+c", "ctrl + KEY_V"]
            """)
        #expect(config.bindings[0].actions.keys == KeySequence(written: ["ctrl+alt+Right"], chords: [[29, 56, 106]]))
        #expect(config.bindings[1].actions.keys?.chords == [[29, 46], [29, 47]])
    }

    @Test func anUnknownKeyOrTooLongASequenceIsLocated() throws {
        #expect(refusals("[[gesture]]\nname = \"n\"\ntype = \"tap\"\nkeys = \"ctrl+Rigth\"\n")
            == [#"test.toml:4: error: gesture[1].keys: no key is named "Rigth" (did you mean "RIGHT"?); names are the kernel's KEY_ names without KEY_ (Right, VolumeUp, F5, Enter), or ctrl, alt, shift, super, altgr"#])
        #expect(refusals("[[gesture]]\nname = \"n\"\ntype = \"tap\"\nkeys = \"ctrl+\"\n").first?.contains("an empty key name") == true)
        #expect(refusals("[[gesture]]\nname = \"n\"\ntype = \"tap\"\nkeys = []\n").first?.contains("empty; expected keys") == true)
        // A sequence is bounded: the loop writes it in one wake-up.
        let many = (0..<33).map { _ in "\"ctrl+c\"" }.joined(separator: ", ")
        #expect(refusals("[[gesture]]\nname = \"n\"\ntype = \"tap\"\nkeys = [\(many)]\n")
            == ["test.toml:4: error: gesture[1].keys: 33 chords; at most 32 a gesture (a command can type more)"])
        #expect(refusals("[[gesture]]\nname = \"n\"\ntype = \"tap\"\nkeys = \"\(Array(repeating: "c", count: 9).joined(separator: "+"))\"\n")
            == [#"test.toml:4: error: gesture[1].keys: "c+c+c+c+c+c+c+c+c" holds 9 keys; at most 8 at once"#])
        #expect(try parsed("[[gesture]]\nname = \"n\"\ntype = \"tap\"\nkeys = [\((0..<32).map { _ in "\"ctrl+c\"" }.joined(separator: ", "))]\n")
            .bindings[0].actions.keys?.chords.count == 32)
        // Buttons are click's: BTN_LEFT is no key.
        #expect(refusals("[[gesture]]\nname = \"n\"\ntype = \"tap\"\nkeys = \"BTN_LEFT\"\n").count == 1)
    }

    @Test func clicksAndDoubleClicks() throws {
        let config = try parsed("""
            [[gesture]]
            name = "menu"
            type = "long-press"
            click = "right"

            [[gesture]]
            name = "open"
            type = "tap"
            taps = 2
            click = "left"
            double = true
            """)
        #expect(config.bindings.map(\.actions.click) == [Click(.right), Click(.left, count: 2)])
        #expect(refusals("[[gesture]]\nname = \"n\"\ntype = \"tap\"\ndouble = true\n")
            == ["test.toml:4: error: gesture[1].double: goes with click, like click = \"left\""])
        #expect(refusals("[[gesture]]\nname = \"n\"\ntype = \"tap\"\nclick = \"side\"\n").count == 1)
    }

    @Test func stepsTakeAnyActionInInlineTables() throws {
        let config = try parsed("""
            [[gesture]]
            name = "volume"
            type = "rotate"
            step = 15
            increase = { keys = "VolumeUp" }
            decrease = { command = "pactl set-sink-volume @DEFAULT_SINK@ -5%", signal = true }

            [[gesture]]
            name = "scroll"
            type = "pan"
            fingers = 2
            scroll = true
            scroll_mm = 5
            """)
        let steps = try #require(config.bindings[0].steps)
        #expect(steps.size == 15 && steps.increase.keys?.chords == [[115]])
        #expect(steps.decrease.command != nil && steps.decrease.signal)
        #expect(config.bindings[1].scroll == Scroll(mmPerDetent: 5))
        #expect(config.bindings[1].needsVirtualDevices && config.bindings[0].needsVirtualDevices)
    }

    @Test func stepsAreRefusedWhereTheyCannotBeWithTheirLine() {
        #expect(refusals("[[gesture]]\nname = \"v\"\ntype = \"rotate\"\nstep = 15\nincrease = { keys = \"VolumeUp\" }\n")
            == [#"test.toml:1: error: gesture[1].decrease: missing; step needs both increase and decrease, like decrease = { keys = "VolumeDown" }"#])
        #expect(refusals("[[gesture]]\nname = \"v\"\ntype = \"pinch\"\nstep = 0.9\nincrease = { keys = \"VolumeUp\" }\ndecrease = { keys = \"VolumeDown\" }\n")
            == ["test.toml:4: error: gesture[1].step: expected at least 1.01 (a 1 % change of the fingers' spread), found 0.9; a scale factor over 1, like 1.1 for every 10 %"])
        // The finest steps a hand makes on purpose, per kind: at them accepted, below refused.
        let stepped = "\nincrease = { keys = \"VolumeUp\" }\ndecrease = { keys = \"VolumeDown\" }\n"
        for (type, finest, below, words) in [("pan", "1", "0.999", "a millimetre"), ("rotate", "1", "1e-9", "a degree"),
                                             ("pinch", "1.01", "1.0000000000000002", "a 1 % change of the fingers' spread")] {
            #expect(refusals("[[gesture]]\nname = \"s\"\ntype = \"\(type)\"\nstep = \(finest)" + stepped).isEmpty, "\(type)")
            #expect(refusals("[[gesture]]\nname = \"s\"\ntype = \"\(type)\"\nstep = \(below)" + stepped).first?
                .hasPrefix("test.toml:4: error: gesture[1].step: expected at least \(finest) (\(words)), found ") == true, "\(type)")
        }
        #expect(refusals("[[gesture]]\nname = \"s\"\ntype = \"pan\"\nstep = 1e-300" + stepped).count == 1)
        #expect(refusals("[[gesture]]\nname = \"v\"\ntype = \"rotate\"\nstep = 15\nincrease = { keys = \"Volumeup\", typo = 1 }\ndecrease = {}\n")
            == ["test.toml:5: error: gesture[1].increase.typo: unknown setting; increase takes command, exec, signal, keys, click, double",
                "test.toml:6: error: gesture[1].decrease: empty; expected what a step does: command, exec, keys, click or signal"])
        #expect(refusals("[[gesture]]\nname = \"t\"\ntype = \"tap\"\nstep = 1\n").first?.contains("tap gesture has no step") == true)
        #expect(refusals("[[gesture]]\nname = \"p\"\ntype = \"pan\"\nscroll_mm = 3\n")
            == ["test.toml:4: error: gesture[1].scroll_mm: goes with scroll = true"])
        #expect(refusals("[[gesture]]\nname = \"p\"\ntype = \"pan\"\nscroll = true\nscroll_mm = 1e9\n").count == 1)
        #expect(refusals("[[gesture]]\nname = \"p\"\ntype = \"pan\"\nscroll = true\nscroll_mm = 5e-324\n")
            == ["test.toml:5: error: gesture[1].scroll_mm: expected at least 0.1 (a tenth of a millimetre a notch), found 5e-324"])
        #expect(refusals("[[gesture]]\nname = \"p\"\ntype = \"pan\"\nscroll = true\nscroll_mm = 0.1\n").isEmpty)
    }

    @Test func aContinuousGestureHoldsKeysAButtonAndThePointer() throws {
        let config = try parsed("""
            [[gesture]]
            name = "drag"
            type = "pan"
            fingers = 3
            hold = "super"
            hold_button = "left"

            [[gesture]]
            name = "switcher"
            type = "pinch"
            hold = "ctrl+alt"

            [[gesture]]
            name = "hover"
            type = "rotate"
            pointer = true
            """)
        let super_ = try Self.keyCodes.chord("super").get()
        #expect(config.bindings[0].hold == Hold(written: "super", keys: super_, button: .left, pointer: true))
        #expect(config.bindings[1].hold == Hold(written: "ctrl+alt", keys: [29, 56], pointer: false))
        #expect(config.bindings[2].hold == Hold(pointer: true))
        #expect(config.bindings.filter(\.needsVirtualDevices).count == 3)
    }

    @Test func aTouchpadGestureTracksItsFingersAndWithholdsThemFromTheTwin() throws {
        let config = try parsed("[[gesture]]\nname = \"w\"\ntype = \"pan\"\nfingers = 3\ntouchpad = true\n")
        #expect(config.bindings[0].touchpad && config.gestures[0].tracksTouches && config.gestures[0].delaysTouchesBegan)
        #expect(refusals("[[gesture]]\nname = \"w\"\ntype = \"pan\"\ntouchpad = true\n")
            == ["test.toml:4: error: gesture[1].touchpad: a touchpad gesture has 2 to 5 fingers; this pan has 1 (set fingers)"])
        #expect(refusals("[[gesture]]\nname = \"w\"\ntype = \"swipe\"\nfingers = 3\ntouchpad = true\n").count == 1)
    }

    @Test func holdsAreRefusedWhereTheyCannotBeWithTheirLine() {
        #expect(refusals("[[gesture]]\nname = \"s\"\ntype = \"swipe\"\nhold = \"alt\"\n").first?
            .hasPrefix("test.toml:4: error: gesture[1].hold: a swipe gesture has no hold") == true)
        #expect(refusals("[[gesture]]\nname = \"p\"\ntype = \"pan\"\nhold = \"alt+Nope\"\n").first?
            .hasPrefix("test.toml:4: error: gesture[1].hold: no key is named \"Nope\"") == true)
        #expect(refusals("[[gesture]]\nname = \"p\"\ntype = \"pan\"\nhold = [\"alt\", \"Tab\"]\n").count == 1)
        #expect(refusals("[[gesture]]\nname = \"p\"\ntype = \"pan\"\nhold_button = \"side\"\n").first?
            .hasPrefix("test.toml:4: error: gesture[1].hold_button: expected one of") == true)
        #expect(refusals("[[gesture]]\nname = \"p\"\ntype = \"pan\"\npointer = false\n")
            == ["test.toml:4: error: gesture[1].pointer: false holds nothing; pointer goes with hold or hold_button, or alone as true (the pointer follows the fingers)"])
        #expect(refusals("[[gesture]]\nname = \"p\"\ntype = \"pan\"\nhold = \"alt\"\npointer = false\n").isEmpty)
    }

    @Test func theShippedExamplesAreValidOnceUncommented() throws {
        let text = try projectFile("config/gestured.toml")
        let start = try #require(text.range(of: "# Keys, clicks and steps"))
        let end = try #require(text.range(of: "# A shape of your own"))
        let examples = text[start.lowerBound..<end.lowerBound].split(separator: "\n").filter { $0.hasPrefix("# ") && !$0.hasPrefix("# Keys") && !$0.hasPrefix("# desktop") }
        let config = try parsed(examples.map { $0.dropFirst(2) }.joined(separator: "\n"))
        #expect(config.gestures.map(\.name) == ["next-desktop", "context-menu", "volume", "wheel"])
        #expect(config.bindings.allSatisfy { $0.needsVirtualDevices })
    }
}
