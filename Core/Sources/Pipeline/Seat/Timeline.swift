import Gestures
import TouchCore

/// What happens to a replayed seat besides its recordings, one line each: a time in
/// seconds on the recordings' clock, then what happens then. `#` starts a comment.
///
///     0.5 mode maintenance        SetMode
///     1 pause 5                   Pause(5 s)
///     2 resume                    Resume
///     3 lock                      the session locked (logind)
///     4 unlock
///     4.2 silent                  logind says nothing (away, not answering): the lock
///                                 stays as it was heard
///     4.5 away                    another session in front of the seat (a user's own
///                                 daemon reads no panel); "back": this one again
///     5 rotate 90                 the display's rotation (the accelerometer, SetRotation)
///     6 rotate 90 panel.evemu     one panel's (its recording), SetRotation on its object
///     7 reload other.toml         a new configuration (relative to the timeline's folder)
///     8 app firefox               the application in front (its app id; "app none": not known)
///     9 windows 1920x1080 firefox@0,0,960x1080 foot@960,0,960x1080
///                                 where the windows are: the screen, then each window,
///                                 topmost first, as APP_ID@X,Y,WIDTHxHEIGHT ("windows none":
///                                 not known)
///    10 screens eDP-1=off HDMI-A-1=on
///                                 the screens and whether each is lit (on), blanked (off)
///                                 or not in use (unused), as the kernel's connectors say
///                                 ("screens none": none known)
///    11 session c2 1001           the system service's: session c2 of uid 1001 is in front
///                                 of the seat (logind's ActiveSession; "session none": none)
///    12 push c2 1001 bob.toml     the agent in session c2, of uid 1001, hands over its
///                                 user's configuration ("-" for no session: the user's own
///                                 services); relative to the timeline's folder
///    13 leave c2 1001             that agent leaves the bus
///    13.5 report c2 1001 firefox  that agent reports the application in front
///                                 (ReportApp; "none": none), taken only while its
///                                 session is in front
///    13.6 report-windows c2 1001 1920x1080 firefox@0,0,960x1080
///                                 that agent reports where the windows are
///                                 (ReportWindows; as `windows`), on the same terms
///    14 unplug panel.evemu        the panel goes (its recording): unplugged mid-gesture
///    15 stop                      the daemon stops (SIGTERM): the replay ends there
public struct Timeline: Sendable {
    public enum Entry: Sendable, Equatable {
        case request(ControlRequest)
        case locked(Bool)
        case logindSilent
        case sessionInFront(Bool)
        case app(AppInFront?)
        case windows(WindowLayout?)
        case screens(Screens)
        case reload(path: String)
        case activeSession(SeatSession?)
        /// An agent's caller: its session (nil: none) and user.
        case push(session: String?, uid: UInt32, path: String)
        case agentLeft(session: String?, uid: UInt32)
        /// An agent's report of the application in front, and of where the windows are.
        case reportedApp(session: String?, uid: UInt32, AppInFront?)
        case reportedWindows(session: String?, uid: UInt32, WindowLayout?)
        /// A panel unplugged, by its recording's path or file name.
        case unplug(String)
        case stop
    }

    /// Each word a line may say after its time, what follows it, and a line saying it:
    /// the words the parser reads (no other), and what its mistakes and the replay help
    /// list; a test reads every example.
    public static let grammar: [(word: String, arguments: String, example: String)] = [
        ("mode", "NAME", "mode maintenance"), ("pause", "SECONDS", "pause 5"), ("resume", "", "resume"),
        ("lock-touch", "", "lock-touch"), ("unlock-touch", "", "unlock-touch"), ("lock", "", "lock"), ("unlock", "", "unlock"),
        ("silent", "", "silent"), ("away", "", "away"), ("back", "", "back"),
        ("rotate", "DEGREES [RECORDING]", "rotate 90 panel.evemu"), ("app", "APP_ID|none", "app firefox"),
        ("windows", "WxH APP@X,Y,WxH ...|none", "windows 1920x1080 firefox@0,0,960x1080"),
        ("screens", "NAME=on|off|unused ...|none", "screens eDP-1=off HDMI-A-1=on"), ("reload", "FILE", "reload other.toml"),
        ("session", "ID UID|none", "session c2 1001"), ("push", "ID|- UID FILE", "push c2 1001 bob.toml"),
        ("leave", "ID|- UID", "leave c2 1001"), ("report", "ID|- UID APP_ID|none", "report c2 1001 firefox"),
        ("report-windows", "ID|- UID WxH APP@X,Y,WxH ...|none", "report-windows c2 1001 1920x1080 firefox@0,0,960x1080"),
        ("unplug", "RECORDING", "unplug panel.evemu"), ("stop", "", "stop"),
    ]

    /// The words and what follows each, as the replay help says them.
    public static var usage: String {
        grammar.map { $0.arguments.isEmpty ? $0.word : "\($0.word) \($0.arguments)" }.joined(separator: " | ")
    }

    /// The bus name a timeline gives the agent in a session (or none) of a user.
    public static func agentName(session: String?, uid: UInt32) -> String { "agent:\(session ?? "-"):\(uid)" }

    public struct Line: Sendable, Equatable {
        public var time: Timestamp
        public var line: Int
        public var entry: Entry
    }

    public let path: String
    /// In time order (lines of one time in file order).
    public private(set) var lines: [Line] = []

    /// The longest timeline read: a replay's script, not a log.
    public static let mostLines = 10_000

    public init(parsing text: String, path: String) throws(FileError) {
        self.path = path
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let words = raw.prefix { $0 != "#" }.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard !words.isEmpty else { continue }
            guard lines.count < Self.mostLines else {
                throw FileError(path: path, line: number, message: "more than \(Self.mostLines) lines; split the replay")
            }
            func fail(_ message: String) -> FileError { FileError(path: path, line: number, message: message) }
            guard let seconds = Double(words[0]), seconds.isFinite, seconds >= 0, seconds <= 1e9 else {
                throw fail("\"\(printable(words[0]))\" is no time; a line starts with seconds from the recordings' start (0 to 1e9), as in \"1.5 lock\"")
            }
            let entry = try Self.entry(Array(words.dropFirst()), fail)
            lines.append(Line(time: Timestamp(seconds: seconds), line: number, entry: entry))
        }
        // Stable: lines of one time keep their order.
        lines = lines.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    private static func entry(_ words: [String], _ fail: (String) -> FileError) throws(FileError) -> Entry {
        let what = words.first ?? ""
        // The grammar is the list of words: one missing from it is read nowhere.
        func unknown() -> FileError {
            let words = grammar.map(\.word)
            return fail("\"\(printable(what))\" is not something a timeline does; expected \(words.dropLast().joined(separator: ", ")) or \(words.last!)")
        }
        guard grammar.contains(where: { $0.word == what }) else { throw unknown() }
        let arguments = words.dropFirst()
        func count(_ n: ClosedRange<Int>, _ usage: String) throws(FileError) {
            guard n.contains(arguments.count) else { throw fail("\(what) takes \(usage)") }
        }
        switch what {
        case "mode":
            try count(1...1, "a mode's name, as in \"1 mode maintenance\"")
            return .request(.setMode(arguments.first!))
        case "pause":
            try count(1...1, "seconds, as in \"1 pause 5\"")
            guard let seconds = Double(arguments.first!), seconds.isFinite else { throw fail("pause takes seconds, as in \"1 pause 5\"") }
            return .request(.pause(seconds: seconds))
        case "resume":
            try count(0...0, "nothing")
            return .request(.resume)
        case "lock-touch", "unlock-touch":
            try count(0...0, "nothing")
            return .request(.lockTouch(what == "lock-touch"))
        case "lock", "unlock":
            try count(0...0, "nothing")
            return .locked(what == "lock")
        case "silent":
            try count(0...0, "nothing")
            return .logindSilent
        case "away", "back":
            try count(0...0, "nothing")
            return .sessionInFront(what == "back")
        case "rotate":
            try count(1...2, "degrees clockwise (0, 90, 180 or 270) and, for one panel, its recording")
            guard let degrees = UInt32(arguments.first!) else { throw fail("rotate takes degrees clockwise: 0, 90, 180 or 270") }
            if let node = arguments.dropFirst().first { return .request(.rotatePanel(node: node, degrees: degrees)) }
            return .request(.rotate(degrees: degrees))
        case "app":
            try count(1...1, "an app id, as in \"8 app firefox\", or none")
            let name = arguments.first!
            guard name.utf8.count <= AppInFront.longestName else { throw fail("an app id is at most \(AppInFront.longestName) bytes long") }
            return .app(name == "none" ? nil : AppInFront(appID: name, source: "the timeline"))
        case "windows":
            return .windows(try windows(Array(arguments), fail))
        case "screens":
            return .screens(try screens(Array(arguments), fail))
        case "reload":
            try count(1...1, "a configuration file, as in \"7 reload other.toml\"")
            return .reload(path: arguments.first!)
        case "session":
            try count(1...2, "a session's id and its user's uid, as in \"11 session c2 1001\", or none")
            if arguments == ["none"] { return .activeSession(nil) }
            guard arguments.count == 2, let uid = UInt32(arguments.last!) else { throw fail("session takes a session's id and its user's uid, as in \"11 session c2 1001\", or none") }
            return .activeSession(SeatSession(id: arguments.first!, user: uid))
        case "push", "leave":
            let usage = what == "push" ? "the agent's session (- for none), its uid and a configuration file, as in \"12 push c2 1001 bob.toml\""
                : "the agent's session (- for none) and its uid, as in \"13 leave c2 1001\""
            try count(what == "push" ? 3...3 : 2...2, usage)
            let words = Array(arguments)
            guard let uid = UInt32(words[1]) else { throw fail("\(what) takes \(usage)") }
            let session = words[0] == "-" ? nil : words[0]
            return what == "push" ? .push(session: session, uid: uid, path: words[2]) : .agentLeft(session: session, uid: uid)
        case "report", "report-windows":
            let usage = what == "report" ? "the agent's session (- for none), its uid and an app id or none, as in \"13.5 report c2 1001 firefox\""
                : "the agent's session (- for none), its uid and the windows, as in \"13.6 report-windows c2 1001 1920x1080 firefox@0,0,960x1080\""
            let words = Array(arguments)
            guard words.count >= 3, let uid = UInt32(words[1]) else { throw fail("\(what) takes \(usage)") }
            let session = words[0] == "-" ? nil : words[0]
            guard what == "report" else { return .reportedWindows(session: session, uid: uid, try windows(Array(words.dropFirst(2)), fail)) }
            try count(3...3, usage)
            guard words[2].utf8.count <= AppInFront.longestName else { throw fail("an app id is at most \(AppInFront.longestName) bytes long") }
            return .reportedApp(session: session, uid: uid, words[2] == "none" ? nil : AppInFront(appID: words[2], source: "the timeline"))
        case "unplug":
            try count(1...1, "a panel's recording, as in \"14 unplug panel.evemu\"")
            return .unplug(arguments.first!)
        case "stop":
            try count(0...0, "nothing, as in \"15 stop\"")
            return .stop
        default:
            throw unknown()
        }
    }

    /// `none`, or each screen as NAME=on or NAME=off.
    private static func screens(_ words: [String], _ fail: (String) -> FileError) throws(FileError) -> Screens {
        let usage = "screens takes each screen as NAME=on, NAME=off (blanked) or NAME=unused, as in \"10 screens eDP-1=off HDMI-A-1=on\", or none"
        if words == ["none"] { return Screens([]) }
        guard !words.isEmpty else { throw fail(usage) }
        guard words.count <= Screens.mostScreens else { throw fail("at most \(Screens.mostScreens) screens") }
        var screens: [Screens.Screen] = []
        for word in words {
            let parts = word.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= Screens.longestName, ["on", "off", "unused"].contains(parts[1]) else {
                throw fail("\"\(printable(word))\" is no screen; \(usage)")
            }
            screens.append(Screens.Screen(name: String(parts[0]), lit: parts[1] == "on", inUse: parts[1] != "unused"))
        }
        return Screens(screens)
    }

    /// `none`, or the screen as WIDTHxHEIGHT and each window, topmost first, as
    /// APP_ID@X,Y,WIDTHxHEIGHT.
    private static func windows(_ words: [String], _ fail: (String) -> FileError) throws(FileError) -> WindowLayout? {
        let usage = "windows takes the screen and each window, topmost first, as in \"9 windows 1920x1080 firefox@0,0,960x1080\", or none"
        guard let first = words.first else { throw fail(usage) }
        if first == "none", words.count == 1 { return nil }
        guard words.count <= WindowLayout.mostWindows + 1 else { throw fail("at most \(WindowLayout.mostWindows) windows") }
        func size(_ text: Substring) -> (Int32, Int32)? {
            let parts = text.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Int32(parts[0]), let h = Int32(parts[1]), w > 0, h > 0 else { return nil }
            return (w, h)
        }
        guard let (width, height) = size(Substring(first)) else { throw fail("\"\(printable(first))\" is no screen size; \(usage)") }
        var windows: [WindowLayout.Window] = []
        for word in words.dropFirst() {
            let parts = word.split(separator: "@", omittingEmptySubsequences: false)
            let place = parts.count == 2 ? parts[1].split(separator: ",", omittingEmptySubsequences: false) : []
            guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= AppInFront.longestName, place.count == 3,
                  let x = Int32(place[0]), let y = Int32(place[1]), let (w, h) = size(place[2]) else {
                throw fail("\"\(printable(word))\" is no window; \(usage)")
            }
            windows.append(WindowLayout.Window(frame: .init(x: x, y: y, width: w, height: h), app: AppInFront(appID: String(parts[0]), source: "the timeline")))
        }
        return WindowLayout(screen: .init(x: 0, y: 0, width: width, height: height), windows: windows, source: "the timeline")
    }
}
