import ConfigDocument
import ConfigEdit
import ConfigSyntax
import Testing

/// The studio's saving: one gesture edited, everything else as its author wrote it.
@Suite struct ConfigTextTests {
    /// A hand-written file: comments above and beside, odd spacing, a learned stroke's
    /// templates over several lines (one of which begins with a bracket), a sub-table.
    static let handWritten = """
        # My gestures. Keep this line.
        [daemon]
        log_level = "info"

        # Back in the browser
        [[gesture]]
        name   = "back"        # spaced by hand
        type = 'swipe'
        fingers = 3
        direction = "left"
        apps = [
          "firefox",
          "org.chromium.*",
        ]

        [[gesture]]
        name = "shape"
        type = "stroke"
        templates = [
        [0.1, 0.2, 0.3],
        [0.4, 0.5, 0.6],
        ]
        command = \"\"\"
        echo [[gesture]]
        name = "fake"\"\"\"

        # the volume knob
        [[gesture]]
        name = "volume"
        type = "rotate"
        step = 15
        [gesture.increase]
        keys = "VolumeUp"

        """

    func gestures(_ text: String) throws -> [ConfigTable] {
        guard case .document(let root) = ParseOutcome(parsing: text) else {
            Issue.record("not TOML:\n\(text)")
            return []
        }
        return try #require(root["gesture"]?.array).compactMap(\.table)
    }

    @Test func theScannerFindsEachGestureAndNoneInsideAValue() throws {
        let file = ConfigText(Self.handWritten)
        #expect(file.gestureCount == 3)
        #expect(try gestures(Self.handWritten).count == 3)
        #expect(file.text == Self.handWritten)
    }

    @Test func aChangedSettingChangesItsLinesAlone() throws {
        var file = ConfigText(Self.handWritten)
        try file.set("fingers", .integer(4), inGesture: 0)
        try file.set("apps", .array([.string("firefox")]), inGesture: 0)
        try file.set("command", .string("echo \"hi\"\n"), inGesture: 1)
        try file.set("step", nil, inGesture: 2)
        try file.set("when_locked", .boolean(true), inGesture: 2)
        let read = try gestures(file.text)
        #expect(read[0]["fingers"] == .integer(4) && read[0]["apps"] == .array([.string("firefox")]))
        #expect(read[0]["name"] == .string("back") && read[0]["direction"] == .string("left"))
        #expect(read[1]["command"] == .string("echo \"hi\"\n") && read[1]["templates"]?.array?.count == 2)
        #expect(read[2]["step"] == nil && read[2]["when_locked"] == .boolean(true))
        #expect(read[2]["increase"] == .table(ConfigTable([("keys", .string("VolumeUp"))])))
        // What was not edited is there as it was written, comments and spacing too.
        let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)
        for kept in ["# My gestures. Keep this line.", "# Back in the browser", "name   = \"back\"        # spaced by hand",
                     "type = 'swipe'", "[0.4, 0.5, 0.6],", "# the volume knob", "[gesture.increase]"] {
            #expect(lines.contains(Substring(kept)), "\(kept)")
        }
        #expect(file.text.contains("fingers = 4\ndirection = \"left\"\napps = [\"firefox\"]\n\n[[gesture]]"))
        #expect(file.text.contains("type = \"rotate\"\nwhen_locked = true\n[gesture.increase]"))
    }

    @Test func addingRemovingAndDuplicatingKeepTheOthersWhole() throws {
        var file = ConfigText(Self.handWritten)
        try file.appendGesture([("name", .string("confirm")), ("type", .string("checkmark")),
                                ("increase", .table(ConfigTable([("keys", .string("ctrl+Enter"))])))])
        #expect(file.text.hasSuffix("\n\n[[gesture]]\nname = \"confirm\"\ntype = \"checkmark\"\nincrease = { keys = \"ctrl+Enter\" }\n"))
        try file.removeGesture(1)
        try file.duplicateGesture(0, as: "back-again")
        let read = try gestures(file.text)
        #expect(read.map { $0["name"]?.string } == ["back", "volume", "confirm", "back-again"])
        #expect(read[3]["apps"] == read[0]["apps"])
        // The removed gesture's lines went with it, its neighbours' comments stayed.
        #expect(!file.text.contains("templates") && !file.text.contains("fake"))
        #expect(file.text.contains("# the volume knob\n[[gesture]]\nname = \"volume\""))
        #expect(file.text.components(separatedBy: "# Back in the browser").count == 3)  // the copy took its comment
        #expect(!file.text.contains("\n\n\n"))
    }

    @Test func removingTheLastGestureLeavesTheFileEndingAsItDid() throws {
        var file = ConfigText("[[gesture]]\nname = \"a\"\ntype = \"tap\"\n\n[[gesture]]\nname = \"b\"\ntype = \"tap\"\n")
        try file.removeGesture(1)
        #expect(file.text == "[[gesture]]\nname = \"a\"\ntype = \"tap\"\n")
        try file.removeGesture(0)
        #expect(file.text == "")
        try file.appendGesture([("name", .string("c")), ("type", .string("tap"))])
        #expect(file.text == "[[gesture]]\nname = \"c\"\ntype = \"tap\"\n")
    }

    @Test func valuesAreWrittenSoTheParserReadsThemBack() throws {
        let values: [ConfigValue] = [
            .string("quote \" backslash \\ tab \t bell \u{7} del \u{7f} é ✓"), .integer(-42), .integer(Int.max),
            .float(0.5), .float(1e-9), .float(-1e300), .float(.infinity), .boolean(false),
            .array([]), .array([.array([.integer(1)]), .string("x")]),
            // In the parser's order (it sorts a table's keys), so that equal is equal.
            .table(ConfigTable([("", .boolean(true)), ("bare-key_1", .integer(1)), ("needs quoting", .string("y"))])),
        ]
        for value in values {
            var file = ConfigText("[[gesture]]\nname = \"a\"\n")
            try file.set("value", value, inGesture: 0)
            #expect(try gestures(file.text)[0]["value"] == value, "\(file.text)")
        }
        var file = ConfigText("[[gesture]]\nname = \"a\"\n")
        #expect(throws: ConfigEditError.notWritable("a date or time")) { try file.set("when", .dateOrTime, inGesture: 0) }
        #expect(throws: ConfigEditError.noSuchGesture(1)) { try file.set("type", .string("tap"), inGesture: 1) }
    }

    @Test func gesturesNotWrittenAsTablesAreNotEdited() {
        var file = ConfigText("gesture = [{ name = \"a\", type = \"tap\" }]\n")
        #expect(throws: ConfigEditError.gesturesNotTables) { try file.removeGesture(0) }
    }

    @Test func aSketchSaysWhatDrawsAGestureAndWhatItDoes() throws {
        let sketches = try gestures(Self.handWritten).map(GestureSketch.init)
        #expect(sketches.map(\.summary) == ["swipe, 3 fingers, left: nothing yet", "stroke, 1 finger: runs echo [[gesture]]\nname = \"fake\"",
                                            "rotate, 2 fingers: steps"])
        let keys = GestureSketch(ConfigTable([("name", .string("next")), ("type", .string("edge-swipe")), ("edge", .string("top")),
                                              ("keys", .string("super")), ("command", .string("true"))]))
        #expect(keys.summary == "edge-swipe, 1 finger, top: keys super" && keys.name == "next")
        #expect(GestureSketch(ConfigTable()).summary == "(no type), 1 finger: nothing yet")
    }
}
