import Config
import ConfigParsing
import Gestures
import Pipeline
import Testing
import TouchCore

/// Gestures per application: the patterns, which gesture a gate lets fire, and the seat
/// taking the application in front from the next touch sequence.
@Suite struct AppInFrontTests {
    @Test func patternsMatchWithoutRegardToASCIICase() {
        let cases: [(String, String, Bool)] = [
            ("firefox", "firefox", true), ("firefox", "Firefox", true), ("firefox", "firefox-esr", false),
            ("org.mozilla.*", "org.mozilla.firefox", true), ("org.mozilla.*", "org.mozilla.", true), ("org.mozilla.*", "org.gnome.Nautilus", false),
            ("*term*", "gnome-terminal-server", true), ("*term*", "xterm", true), ("*term*", "kitty", false),
            ("fire?ox", "firefox", true), ("fire?ox", "fireox", false),
            ("[a-c]hromium", "chromium", true), ("[A-C]hromium", "chromium", true), ("[!c]hromium", "chromium", false), ("[!c]hromium", "xhromium", true),
            ("[]]x", "]x", true), ("*", "", true), ("", "", true), ("", "a", false), ("a*b*c", "aXbYbZc", true), ("a*b*c", "aXbYbZ", false),
            ("Éclair", "éclair", false), ("Éclair", "Éclair", true),
        ]
        for (pattern, name, expected) in cases {
            #expect(AppPattern.matches(pattern, name) == expected, "\(pattern) ~ \(name)")
        }
        #expect(AppPattern.problem("[abc") != nil && AppPattern.problem("[]") != nil && AppPattern.problem("a[]]b") == nil)
    }

    @Test func aLongNameAgainstManyStarsEndsQuickly() {
        let name = String(repeating: "a", count: AppInFront.longestName)
        #expect(!AppPattern.matches(String(repeating: "*a", count: 100) + "b", name))
    }

    @Test func aConditionMatchesAnyOfTheAppsNames() {
        let firefox = AppInFront(windowClass: "Firefox", instance: "Navigator", source: "x11")
        let kitty = AppInFront(appID: "kitty", source: "sway")
        #expect(AppCondition(only: ["navigator"]).admits(firefox))
        #expect(!AppCondition(only: ["firefox"]).admits(kitty))
        #expect(!AppCondition(only: ["firefox"]).admits(nil))
        #expect(AppCondition(except: ["kitty"]).admits(nil) && AppCondition(except: ["kitty"]).admits(firefox))
        #expect(!AppCondition(except: ["kitty"]).admits(kitty))
        #expect(!AppCondition(only: ["*"], except: ["kitty"]).admits(kitty))
    }

    static let config = """
        [[gesture]]
        name = "back"
        type = "tap"
        command = "true"

        [[gesture]]
        name = "browser-back"
        type = "tap"
        apps = ["firefox", "org.chromium.*"]
        command = "true"

        [[gesture]]
        name = "terminal-tab"
        type = "tap"
        fingers = 2
        apps = ["*term*", "kitty"]
        command = "true"

        [[gesture]]
        name = "not-in-terminals"
        type = "tap"
        fingers = 3
        not_apps = ["kitty"]
        command = "true"
        """

    @Test func anApplicationsOwnGestureTakesThePlaceOfTheOneForEveryApplication() throws {
        let gestures = try Configuration.parse(Self.config, file: "apps.toml").gestures
        func firing(_ app: AppInFront?) -> [String] { GestureGate(mode: "default", app: app).admitted(gestures).map(\.name) }
        #expect(firing(nil) == ["back", "not-in-terminals"])
        #expect(firing(AppInFront(appID: "firefox", source: "t")) == ["browser-back", "not-in-terminals"])
        #expect(firing(AppInFront(appID: "org.chromium.Chromium", source: "t")) == ["browser-back", "not-in-terminals"])
        #expect(firing(AppInFront(appID: "kitty", source: "t")) == ["back", "terminal-tab"])
        #expect(firing(AppInFront(windowClass: "XTerm", instance: "xterm", source: "t")) == ["back", "terminal-tab", "not-in-terminals"])
        // The mode and the lock still decide first.
        #expect(GestureGate(mode: "default", locked: true, app: AppInFront(appID: "firefox", source: "t")).admitted(gestures).isEmpty)
        let summary = GestureGate(mode: "default", app: AppInFront(appID: "kitty", source: "t")).appSummary(gestures)
        #expect(summary == "for it: terminal-tab; not for it: browser-back, not-in-terminals")
    }

    func tap(fingers: Int, at seconds: Double, holdFor hold: Double = 0.05) -> [SeatInput] {
        var w = EventWriter(at: seconds)
        for finger in 0..<fingers {
            w.abs(AbsCode.mtSlot, Int32(finger))
            w.abs(AbsCode.mtTrackingID, Int32(100 + finger))
            w.abs(AbsCode.mtPositionX, 1000 + 400 * Int32(finger))
            w.abs(AbsCode.mtPositionY, 1000)
        }
        w.syn()
        w.time = Timestamp(seconds: seconds + hold)
        for finger in 0..<fingers {
            w.abs(AbsCode.mtSlot, Int32(finger))
            w.abs(AbsCode.mtTrackingID, -1)
        }
        w.syn()
        return w.events.map { .event(node: "a", $0) }
    }

    @Test func theSeatTakesTheApplicationFromTheNextSequence() throws {
        let seat = Seat(config: try Configuration.parse(Self.config, file: "apps.toml"))
        try seat.step(.appeared(SeatDevice(node: "a", description: SeatTests().panel), at: Timestamp(microseconds: 0)))
        func app(_ id: String?, at seconds: Double) -> SeatInput {
            .appInFront(id.map { AppInFront(appID: $0, source: "test") }, why: "test", at: Timestamp(seconds: seconds))
        }
        var fired: [String] = [], said: [String] = []
        // The application changes while a finger is down: that tap is still the one it began as.
        let mid = tap(fingers: 1, at: 7, holdFor: 0.2)
        let lift = mid.firstIndex { $0.time > Timestamp(seconds: 7) }!
        let inputs: [SeatInput] = tap(fingers: 1, at: 1) + [app("firefox", at: 2)] + tap(fingers: 1, at: 3)
            + [app("kitty", at: 4)] + tap(fingers: 1, at: 5) + tap(fingers: 2, at: 5.5) + tap(fingers: 3, at: 6)
            + mid[..<lift] + [app("firefox", at: 7.1)] + mid[lift...] + tap(fingers: 1, at: 8) + [app(nil, at: 9)] + tap(fingers: 1, at: 10)
            + [.deadline(Timestamp(seconds: 12))]
        for input in inputs {
            try seat.step(input)
            for effect in seat.effects {
                switch effect {
                case .step(_, _, let step): fired += step.events.filter { $0.phase == .recognized || $0.phase == .ended }.map(\.name)
                case .control(let change, _): said.append(change.description)
                default: break
                }
            }
        }
        #expect(fired == ["back", "browser-back", "back", "terminal-tab", "back", "browser-back", "back"], "\(fired)")
        #expect(said.contains("app in front: kitty from the next touch sequence; for it: terminal-tab; not for it: browser-back, not-in-terminals (test)"))
        #expect(said.contains("app in front: not known; for it: not-in-terminals; not for it: browser-back, terminal-tab (test)"))
    }

    @Test func aTimelineSetsTheApplication() throws {
        let timeline = try Timeline(parsing: "1 app firefox\n2 app none\n", path: "t")
        let apps = timeline.lines.map { line -> AppInFront?? in
            guard case .input(.appInFront(let app, _, _)) = line.entry else { return nil }
            return app
        }
        #expect(apps == [AppInFront(appID: "firefox", source: "the timeline"), .some(nil)])
        for text in ["1 app\n", "1 app a b\n", "1 app \(String(repeating: "x", count: 300))\n"] {
            #expect(throws: FileError.self) { _ = try Timeline(parsing: text, path: "t") }
        }
    }

    @Test func aMistakeInTheApplicationsIsLocated() {
        let cases: [(String, String)] = [
            ("app = [\"firefox\"]", "unknown setting (did you mean \"apps\"?)"),
            ("apps = []", "apps: empty"),
            ("apps = \"firefox\"", "expected an array of strings"),
            ("not_apps = [\"[abc\"]", "without its \"]\""),
            ("apps = [\"\(String(repeating: "x", count: 300))\"]", "no application's name is longer than 256"),
            ("apps = [\(Array(repeating: "\"a\"", count: 65).joined(separator: ", "))]", "at most 64"),
        ]
        for (line, message) in cases {
            Self.expectRefused(line, saying: ["apps.toml:4", message], file: "apps.toml")
        }
    }

    /// A tap gesture with `lines` from its fourth line on is refused, the error saying each of `saying`.
    static func expectRefused(_ lines: String, saying: [String], file: String) {
        let text = "[[gesture]]\nname = \"t\"\ntype = \"tap\"\n\(lines)\ncommand = \"true\"\n"
        do {
            _ = try Configuration.parse(text, file: file)
            Issue.record("\(lines) was accepted")
        } catch {
            #expect(saying.allSatisfy(error.description.contains), "\(error)")
        }
    }
}
