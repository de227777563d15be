import Config
import ConfigParsing
import Gestures
import Pipeline
import Testing
import TouchCore

/// Gestures for the window under the first touch (`apps_window = "touched"`): finding the
/// window, the setting, and the seat choosing by each sequence's first touch.
@Suite struct WindowUnderTouchTests {
    static func window(_ app: String, _ x: Int32, _ y: Int32, _ width: Int32, _ height: Int32) -> WindowLayout.Window {
        WindowLayout.Window(frame: .init(x: x, y: y, width: width, height: height), app: AppInFront(appID: app, source: "test"))
    }

    /// firefox on the left half, foot on the right, a floating dialog over both.
    static let sideBySide = WindowLayout(screen: .init(x: 0, y: 0, width: 1920, height: 1080),
                                         windows: [window("dialog", 860, 440, 200, 200), window("firefox", 0, 0, 960, 1080), window("foot", 960, 0, 960, 1080)],
                                         source: "test")!

    @Test func theTopmostWindowUnderThePointIsFound() {
        let layout = Self.sideBySide
        #expect(layout.app(atFraction: 0.25, 0.5)?.appID == "firefox")
        #expect(layout.app(atFraction: 0.75, 0.5)?.appID == "foot")
        #expect(layout.app(atFraction: 0.5, 0.5)?.appID == "dialog")
        // Right and bottom edges belong to the next window, or to none.
        #expect(layout.app(atFraction: 0.5, 0.1)?.appID == "foot")
        #expect(layout.app(atFraction: 1, 0.5) == nil)
        #expect(layout.app(atFraction: .nan, 0.5) == nil && layout.app(atFraction: .infinity, 0.5) == nil)
        // A layout whose screen starts elsewhere (an output left of the first, in sway's coordinates).
        let shifted = WindowLayout(screen: .init(x: -1920, y: 0, width: 3840, height: 1080),
                                   windows: [Self.window("left", -1920, 0, 1920, 1080)], source: "test")!
        #expect(shifted.app(atFraction: 0.25, 0.5)?.appID == "left" && shifted.app(atFraction: 0.75, 0.5) == nil)
    }

    @Test func aPeersExtremeNumbersNeitherTrapNorCount() {
        let extreme = WindowLayout(screen: .init(x: .max, y: .min, width: .max, height: .max),
                                   windows: [Self.window("huge", .max, .max, .max, .max), Self.window("negative", 0, 0, -5, 10),
                                             Self.window("everywhere", .min, .min, .max, .max)], source: "test")!
        #expect(extreme.windows.map(\.app.appID) == ["huge", "everywhere"])
        _ = extreme.app(atFraction: 0.5, 0.5)
        #expect(WindowLayout(screen: .init(x: 0, y: 0, width: 0, height: 10), windows: [], source: "test") == nil)
        let many = WindowLayout(screen: .init(x: 0, y: 0, width: 10, height: 10),
                                windows: (0..<1000).map { Self.window("w\($0)", 0, 0, 10, 10) }, source: "test")!
        #expect(many.windows.count == WindowLayout.mostWindows && many.app(atFraction: 0.5, 0.5)?.appID == "w0")
    }

    static let config = """
        [[gesture]]
        name = "back"
        type = "tap"
        command = "true"

        [[gesture]]
        name = "browser-back"
        type = "tap"
        apps = ["firefox"]
        apps_window = "touched"
        command = "true"

        [[gesture]]
        name = "terminal-tab"
        type = "tap"
        apps = ["foot"]
        apps_window = "touched"
        command = "true"

        [[gesture]]
        name = "terminal-paste"
        type = "tap"
        fingers = 2
        apps = ["foot"]
        command = "true"
        """

    @Test func theSettingIsReadAndItsMistakesLocated() throws {
        let gestures = try Configuration.parse(Self.config, file: "w.toml").gestures
        #expect(gestures.map(\.apps.underTouch) == [false, true, true, false])
        let cases: [(String, String)] = [
            ("apps = [\"a\"]\napps_window = \"under\"", "w.toml:5"),
            ("apps_window = \"touched\"", "has no apps or not_apps"),
            ("apps = [\"a\"]\napps_window = 1", "w.toml:5"),
            ("apps = [\"a\"]\napp_window = \"touched\"", "did you mean \"apps_window\""),
        ]
        for (lines, message) in cases {
            AppInFrontTests.expectRefused(lines, saying: [message], file: "w.toml")
        }
    }

    /// A one-finger tap at `x` (device units of `SeatTests().panel`, 0 to 3839) at `seconds`.
    func tap(atX x: Int32, at seconds: Double) -> [SeatInput] {
        var w = EventWriter(at: seconds)
        w.abs(AbsCode.mtSlot, 0)
        w.abs(AbsCode.mtTrackingID, 7)
        w.abs(AbsCode.mtPositionX, x)
        w.abs(AbsCode.mtPositionY, 1000)
        w.syn()
        w.time = Timestamp(seconds: seconds + 0.05)
        w.abs(AbsCode.mtTrackingID, -1)
        w.syn()
        return w.events.map { .event(node: "a", $0) }
    }

    func fired(_ inputs: [SeatInput], explaining: Bool = false, said: inout [String]) throws -> [String] {
        let seat = Seat(config: try Configuration.parse(Self.config, file: "w.toml"))
        try seat.step(.appeared(SeatDevice(node: "a", description: SeatTests().panel), at: Timestamp(microseconds: 0)))
        seat.panel("a")?.pipeline.explaining = explaining
        var fired: [String] = []
        for input in inputs + [.deadline(Timestamp(seconds: 100))] {
            try seat.step(input)
            for effect in seat.effects {
                switch effect {
                case .step(_, _, let step):
                    fired += step.events.filter { $0.phase == .recognized }.map(\.name)
                    if let note = step.underTouch { said.append(note) }
                case .control(let change, _): said.append(change.description)
                default: break
                }
            }
        }
        return fired
    }

    @Test func eachSequenceAnswersToTheWindowUnderItsFirstTouch() throws {
        func at(_ seconds: Double) -> Timestamp { Timestamp(seconds: seconds) }
        let foot = AppInFront(appID: "foot", source: "test")
        var said: [String] = []
        let inputs: [SeatInput] = [.windows(Self.sideBySide, why: "test", at: at(0.5)), .appInFront(foot, why: "test", at: at(0.5))]
            + tap(atX: 900, at: 1) + tap(atX: 3000, at: 2) + tap(atX: 900, at: 3)
            // Unknown windows: the focused window decides (foot: the terminal's tab, not the browser's back).
            + [.windows(nil, why: "test", at: at(3.5))] + tap(atX: 900, at: 4)
        let fired = try fired(inputs, explaining: true, said: &said)
        #expect(fired == ["browser-back", "terminal-tab", "browser-back", "terminal-tab"], "\(fired)")
        #expect(said.contains("windows: 3 windows on 1920×1080 from the next touch sequence (test)"), "\(said)")
        #expect(said.contains("the first touch is on firefox (test); for it: browser-back, terminal-paste; not for it: back, terminal-tab"), "\(said)")
        #expect(said.contains("the first touch is on foot (test); for it: terminal-tab, terminal-paste; not for it: back, browser-back"), "\(said)")
        // The change of application leaves out the gestures the touch decides.
        #expect(said.contains("app in front: foot from the next touch sequence; for it: terminal-paste (test)"), "\(said)")
    }

    @Test func aTouchOnNoWindowIsNoApplication() throws {
        var said: [String] = []
        let layout = WindowLayout(screen: .init(x: 0, y: 0, width: 1920, height: 1080), windows: [Self.window("firefox", 0, 0, 100, 100)], source: "test")!
        let inputs: [SeatInput] = [.windows(layout, why: "test", at: Timestamp(seconds: 0.5))] + tap(atX: 3000, at: 1)
        #expect(try fired(inputs, said: &said) == ["back"])
    }

    @Test func aTimelineSetsTheWindows() throws {
        let timeline = try Timeline(parsing: "1 windows 1920x1080 dialog@860,440,200x200 firefox@0,0,960x1080\n2 windows none\n", path: "t")
        let expected = WindowLayout(screen: .init(x: 0, y: 0, width: 1920, height: 1080),
                                    windows: [Self.window("dialog", 860, 440, 200, 200), Self.window("firefox", 0, 0, 960, 1080)],
                                    source: "the timeline")
        guard case .input(.windows(let first, _, _)) = timeline.lines[0].entry else { Issue.record("not windows"); return }
        #expect(first?.windows.map(\.frame) == expected?.windows.map(\.frame) && first?.screen == expected?.screen)
        #expect(first?.windows.map(\.app.appID) == ["dialog", "firefox"])
        guard case .input(.windows(nil, _, _)) = timeline.lines[1].entry else { Issue.record("not windows none"); return }
        for text in ["1 windows\n", "1 windows 0x10\n", "1 windows 10x10 a@1,2\n", "1 windows 10x10 @1,2,3x4\n", "1 windows 10x10 a@1,2,3x-4\n",
                     "1 windows 10x10 a@1,2,99999999999x4\n", "1 windows none extra\n"] {
            #expect(throws: FileError.self, "\(text)") { _ = try Timeline(parsing: text, path: "t") }
        }
    }
}
