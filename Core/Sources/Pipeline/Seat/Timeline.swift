import Gestures
import TouchCore

/// What happens to a replayed seat besides its recordings, one line each: a time in
/// seconds on the recordings' clock, then what happens then, in the words of `grammar`
/// (the replay help lists them from there). `#` starts a comment. Read and written here
/// alone: each line is a seat input (`SeatInput`), save the two that name a file to read
/// (`reload`, `push`). The inputs no line says are the recordings' own (a panel's events,
/// its appearing at the start and its end) and the clock's (`SeatInput.Kind.notWritten`).
public struct Timeline: Sendable {
    public enum Entry: Sendable {
        /// What the seat takes, with its line as why; a panel named by its recording's
        /// path or file name, as written (`SeatScript.inputs` finds it).
        case input(SeatInput)
        /// A configuration to read (relative to the timeline's folder).
        case reload(path: String)
        /// An agent (its session, nil: none; its user) hands over its user's configuration.
        case push(session: String?, uid: UInt32, path: String)
    }

    /// A word a line may say after its time: what follows it, a line saying it, what it
    /// means, and the seat input it gives. The parser reads these words and no other; its
    /// mistakes and the replay help list them; a test reads and writes every example, and
    /// checks that every input a recording does not give has a word.
    public struct Word: Sendable {
        public let word: String
        public let arguments: String
        public let example: String
        public let meaning: String
        public let gives: SeatInput.Kind
    }

    public static let grammar: [Word] = [
        Word(word: "mode", arguments: "NAME", example: "mode maintenance", meaning: "the control interface's SetMode: that mode in force", gives: .request),
        Word(word: "pause", arguments: "SECONDS", example: "pause 5", meaning: "the control interface's Pause, for that many seconds", gives: .request),
        Word(word: "resume", arguments: "", example: "resume", meaning: "Resume: the pause ends", gives: .request),
        Word(word: "lock-touch", arguments: "", example: "lock-touch", meaning: "LockTouch: the touch lock on", gives: .request),
        Word(word: "unlock-touch", arguments: "", example: "unlock-touch", meaning: "UnlockTouch: the touch lock off", gives: .request),
        Word(word: "rotate", arguments: "DEGREES [RECORDING]", example: "rotate 90 panel.evemu",
             meaning: "the display's Rotation, or one panel's (its recording) on its own object", gives: .request),
        Word(word: "lock", arguments: "", example: "lock", meaning: "the session locked (logind's LockedHint)", gives: .locked),
        Word(word: "unlock", arguments: "", example: "unlock", meaning: "the session unlocked", gives: .locked),
        Word(word: "silent", arguments: "", example: "silent",
             meaning: "logind says nothing (away, not answering): the lock stays as it was heard", gives: .logindSilent),
        Word(word: "away", arguments: "", example: "away",
             meaning: "another session in front of the seat (a user's own daemon reads no panel)", gives: .sessionInFront),
        Word(word: "back", arguments: "", example: "back", meaning: "this session in front again", gives: .sessionInFront),
        Word(word: "orientation", arguments: "normal|left-up|bottom-up|right-up", example: "orientation left-up",
             meaning: "the accelerometer turned the display (iio-sensor-proxy's AccelerometerOrientation)", gives: .displayRotated),
        Word(word: "tablet", arguments: "on|off", example: "tablet on",
             meaning: "a 2-in-1 folded into a tablet, or a laptop again (the kernel's SW_TABLET_MODE)", gives: .tabletMode),
        Word(word: "app", arguments: "APP_ID|none", example: "app firefox", meaning: "the application in front, as a desktop says it",
             gives: .appInFront),
        Word(word: "windows", arguments: "WxH APP@X,Y,WxH ...|none", example: "windows 1920x1080 firefox@0,0,960x1080",
             meaning: "where the windows are: the screen, then each window, topmost first", gives: .windows),
        Word(word: "screens", arguments: "NAME=on|off|unused ...|none", example: "screens eDP-1=off HDMI-A-1=on",
             meaning: "the screens and whether each is lit, blanked or not in use, as the kernel's connectors say", gives: .screens),
        Word(word: "reload", arguments: "FILE", example: "reload other.toml",
             meaning: "a new configuration (relative to the timeline's folder)", gives: .reload),
        Word(word: "session", arguments: "ID UID|none", example: "session c2 1001",
             meaning: "the system service's: that session of that user is in front of the seat (logind's ActiveSession)",
             gives: .activeSession),
        Word(word: "push", arguments: "ID|- UID FILE", example: "push c2 1001 bob.toml",
             meaning: "the agent of that session (-: the user's own services) hands over its user's configuration", gives: .push),
        Word(word: "leave", arguments: "ID|- UID", example: "leave c2 1001", meaning: "that agent leaves the bus", gives: .peerLeft),
        Word(word: "report", arguments: "ID|- UID APP_ID|none", example: "report c2 1001 firefox",
             meaning: "that agent reports the application in front (ReportApp), taken only while its session is in front",
             gives: .reportedApp),
        Word(word: "report-windows", arguments: "ID|- UID WxH APP@X,Y,WxH ...|none",
             example: "report-windows c2 1001 1920x1080 firefox@0,0,960x1080",
             meaning: "that agent reports where the windows are (ReportWindows), on the same terms", gives: .reportedWindows),
        Word(word: "inspect", arguments: "ID|- UID on|dry|off", example: "inspect c2 1001 dry",
             meaning: "that user's studio watches the gestures being decided (Inspect); dry: their actions held back", gives: .inspect),
        Word(word: "twin-failed", arguments: "RECORDING [WHY]", example: "twin-failed panel.evemu uinput refused",
             meaning: "the panel's twin could not be made: it is read beside applications", gives: .isolationFailed),
        Word(word: "calibrate", arguments: "RECORDING A B C D E F|none", example: "calibrate panel.evemu 0 1 0 -1 0 1",
             meaning: "udev says the panel's LIBINPUT_CALIBRATION_MATRIX anew", gives: .calibrated),
        Word(word: "service", arguments: "mode=NAME paused=yes|no locked=yes|no touch-locked=yes|no rotation=DEGREES panel=RECORDING:DEGREES",
             example: "service mode=maintenance paused=no rotation=90",
             meaning: "monitor's: what the running service says of itself (each part optional)", gives: .followed),
        Word(word: "sleep", arguments: "", example: "sleep",
             meaning: "the machine goes to sleep (logind's PrepareForSleep): nothing stays held or under way", gives: .sleeping),
        Word(word: "awake", arguments: "", example: "awake", meaning: "the machine woke", gives: .sleeping),
        Word(word: "unplug", arguments: "RECORDING", example: "unplug panel.evemu", meaning: "the panel goes: unplugged mid-gesture",
             gives: .gone),
        Word(word: "stop", arguments: "", example: "stop", meaning: "the daemon stops (SIGTERM): the replay ends there", gives: .stopping),
    ]

    /// The words and what follows each, in one line.
    public static var usage: String {
        grammar.map { $0.arguments.isEmpty ? $0.word : "\($0.word) \($0.arguments)" }.joined(separator: " | ")
    }

    /// The words, each with what follows it, what it means and an example: the replay
    /// help's.
    public static var help: String {
        grammar.map { "  \($0.arguments.isEmpty ? $0.word : "\($0.word) \($0.arguments)")\n      \($0.meaning) (\"1.5 \($0.example)\")" }
            .joined(separator: "\n")
    }

    /// The caller a timeline names as the agent in a session (or none) of a user.
    public static func agent(session: String?, uid: UInt32) -> BusPeer {
        BusPeer(name: "agent:\(session ?? "-"):\(uid)", uid: uid, session: session)
    }

    public struct Line: Sendable {
        public var time: Timestamp
        public var line: Int
        public var entry: Entry

        /// The line as a timeline says it (nil for an input no word says: a live bus
        /// peer's, a configuration already read).
        public var text: String? { Timeline.words(of: entry).map { "\(Timeline.number(time.seconds)) \($0)" } }
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
            let time = Timestamp(seconds: seconds)
            let entry = try Self.entry(Array(words.dropFirst()), why: "\(path):\(number)", at: time, fail)
            lines.append(Line(time: time, line: number, entry: entry))
        }
        // Stable: lines of one time keep their order.
        lines = lines.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    private static func entry(_ words: [String], why: String, at time: Timestamp, _ fail: (String) -> FileError) throws(FileError) -> Entry {
        let what = words.first ?? ""
        // The grammar is the list of words: one missing from it is read nowhere.
        func unknown() -> FileError {
            let words = grammar.map(\.word)
            return fail("\"\(printable(what))\" is not something a timeline does; expected \(words.dropLast().joined(separator: ", ")) or \(words.last!)")
        }
        guard grammar.contains(where: { $0.word == what }) else { throw unknown() }
        let arguments = Array(words.dropFirst())
        func count(_ n: ClosedRange<Int>, _ usage: String) throws(FileError) {
            guard n.contains(arguments.count) else { throw fail("\(what) takes \(usage)") }
        }
        func request(_ request: ControlRequest) -> Entry { .input(.request(request, why: why, at: time)) }
        /// An agent's session ("-": none) and uid, the first two arguments.
        func agent(_ usage: String) throws(FileError) -> BusPeer {
            guard arguments.count >= 2, let uid = UInt32(arguments[1]) else { throw fail("\(what) takes \(usage)") }
            let session = arguments[0] == "-" ? nil : arguments[0]
            return Self.agent(session: session, uid: uid)
        }
        switch what {
        case "mode":
            try count(1...1, "a mode's name, as in \"1 mode maintenance\"")
            return request(.setMode(arguments[0]))
        case "pause":
            try count(1...1, "seconds, as in \"1 pause 5\"")
            guard let seconds = Double(arguments[0]), seconds.isFinite else { throw fail("pause takes seconds, as in \"1 pause 5\"") }
            return request(.pause(seconds: seconds))
        case "resume":
            try count(0...0, "nothing")
            return request(.resume)
        case "lock-touch", "unlock-touch":
            try count(0...0, "nothing")
            return request(.lockTouch(what == "lock-touch"))
        case "rotate":
            try count(1...2, "degrees clockwise (0, 90, 180 or 270) and, for one panel, its recording")
            guard let degrees = UInt32(arguments[0]) else { throw fail("rotate takes degrees clockwise: 0, 90, 180 or 270") }
            if arguments.count == 2 { return request(.rotatePanel(node: arguments[1], degrees: degrees)) }
            return request(.rotate(degrees: degrees))
        case "lock", "unlock":
            try count(0...0, "nothing")
            return .input(.locked(what == "lock", why: why, at: time))
        case "silent":
            try count(0...0, "nothing")
            return .input(.logindSilent(why: why, at: time))
        case "away", "back":
            try count(0...0, "nothing")
            return .input(.sessionInFront(what == "back", why: why, at: time))
        case "orientation":
            try count(1...1, "normal, left-up, bottom-up or right-up, as iio-sensor-proxy says it")
            guard let turn = QuarterTurn(sensorOrientation: arguments[0]) else {
                throw fail("orientation takes normal, left-up, bottom-up or right-up, as iio-sensor-proxy says it")
            }
            return .input(.displayRotated(turn, why: why, at: time))
        case "tablet":
            try count(1...1, "on or off")
            guard let tablet = ["off": false, "on": true][arguments[0]] else { throw fail("tablet takes on or off") }
            return .input(.tabletMode(tablet, why: why, at: time))
        case "app":
            try count(1...1, "an app id, as in \"8 app firefox\", or none")
            return .input(.appInFront(try app(arguments[0], fail), why: why, at: time))
        case "windows":
            return .input(.windows(try windows(arguments, fail), why: why, at: time))
        case "screens":
            return .input(.screens(try screens(arguments, fail), why: why, at: time))
        case "reload":
            try count(1...1, "a configuration file, as in \"7 reload other.toml\"")
            return .reload(path: arguments[0])
        case "session":
            try count(1...2, "a session's id and its user's uid, as in \"11 session c2 1001\", or none")
            if arguments == ["none"] { return .input(.activeSession(nil, why: why, at: time)) }
            guard arguments.count == 2, let uid = UInt32(arguments[1]) else {
                throw fail("session takes a session's id and its user's uid, as in \"11 session c2 1001\", or none")
            }
            return .input(.activeSession(SeatSession(id: arguments[0], user: uid), why: why, at: time))
        case "push":
            let usage = "the agent's session (- for none), its uid and a configuration file, as in \"12 push c2 1001 bob.toml\""
            try count(3...3, usage)
            let peer = try agent(usage)
            return .push(session: peer.session, uid: peer.uid, path: arguments[2])
        case "leave":
            let usage = "the agent's session (- for none) and its uid, as in \"13 leave c2 1001\""
            try count(2...2, usage)
            return .input(.peerLeft(name: try agent(usage).name, at: time))
        case "report":
            let usage = "the agent's session (- for none), its uid and an app id or none, as in \"13.5 report c2 1001 firefox\""
            try count(3...3, usage)
            return .input(.reportedApp(try app(arguments[2], fail), by: try agent(usage), why: why, at: time))
        case "report-windows":
            let usage = "the agent's session (- for none), its uid and the windows, as in \"13.6 report-windows c2 1001 1920x1080 firefox@0,0,960x1080\""
            guard arguments.count >= 3 else { throw fail("\(what) takes \(usage)") }
            return .input(.reportedWindows(try windows(Array(arguments.dropFirst(2)), fail), by: try agent(usage), why: why, at: time))
        case "inspect":
            let usage = "the agent's session (- for none), its uid and on, dry or off, as in \"14 inspect c2 1001 dry\""
            try count(3...3, usage)
            guard let request = InspectRequest(rawValue: arguments[2]) else { throw fail("inspect takes \(usage)") }
            return .input(.inspect(request, by: try agent(usage), at: time))
        case "twin-failed":
            guard let node = arguments.first else { throw fail("twin-failed takes a panel's recording and why, as in \"1 twin-failed panel.evemu uinput refused\"") }
            let error = arguments.count > 1 ? arguments.dropFirst().joined(separator: " ") : "refused by the timeline"
            return .input(.isolationFailed(node: node, error: error, at: time))
        case "calibrate":
            let usage = "a panel's recording and six numbers (LIBINPUT_CALIBRATION_MATRIX) or none, as in \"1 calibrate panel.evemu 0 1 0 -1 0 1\""
            guard arguments.count == 2 || arguments.count == 7 else { throw fail("calibrate takes \(usage)") }
            if arguments.count == 2 {
                guard arguments[1] == "none" else { throw fail("calibrate takes \(usage)") }
                return .input(.calibrated(node: arguments[0], nil, at: time))
            }
            guard let matrix = CalibrationMatrix(udev: arguments.dropFirst().joined(separator: " ")) else { throw fail("calibrate takes \(usage)") }
            return .input(.calibrated(node: arguments[0], matrix, at: time))
        case "service":
            return .input(.followed(try service(arguments, fail), at: time))
        case "sleep", "awake":
            try count(0...0, "nothing")
            return .input(.sleeping(what == "sleep", why: why, at: time))
        case "unplug":
            try count(1...1, "a panel's recording, as in \"14 unplug panel.evemu\"")
            return .input(.gone(node: arguments[0], why: "unplugged (\(why))", at: time))
        case "stop":
            try count(0...0, "nothing, as in \"15 stop\"")
            return .input(.stopping(at: time))
        default:
            throw unknown()
        }
    }

    /// An app id, or none.
    private static func app(_ name: String, _ fail: (String) -> FileError) throws(FileError) -> AppInFront? {
        guard name.utf8.count <= AppInFront.longestName else { throw fail("an app id is at most \(AppInFront.longestName) bytes long") }
        return name == "none" ? nil : AppInFront(appID: name, source: "the timeline")
    }

    /// What a followed service says, as KEY=VALUE words, each at most once.
    private static func service(_ words: [String], _ fail: (String) -> FileError) throws(FileError) -> ServiceState {
        let usage = "service takes what the service says as mode=NAME, paused=yes|no, locked=yes|no, touch-locked=yes|no, rotation=DEGREES "
            + "and panel=RECORDING:DEGREES, as in \"1 service mode=maintenance paused=no\""
        var state = ServiceState()
        var said = Set<Substring>()
        guard !words.isEmpty else { throw fail(usage) }
        for word in words {
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, said.insert(parts[0]).inserted else { throw fail("\"\(printable(word))\": \(usage)") }
            let value = String(parts[1])
            func yesNo() throws(FileError) -> Bool {
                guard value == "yes" || value == "no" else { throw fail("\"\(printable(word))\": \(usage)") }
                return value == "yes"
            }
            func turn(_ degrees: Substring) throws(FileError) -> QuarterTurn {
                guard let degrees = UInt32(degrees), let turn = QuarterTurn(degrees: degrees) else { throw fail("\"\(printable(word))\": \(usage)") }
                return turn
            }
            switch parts[0] {
            case "mode": state.mode = value
            case "paused": state.paused = try yesNo()
            case "locked": state.locked = try yesNo()
            case "touch-locked": state.touchLocked = try yesNo()
            case "rotation": state.rotation = try turn(parts[1])
            case "panel":
                guard let colon = value.lastIndex(of: ":"), colon != value.startIndex else { throw fail("\"\(printable(word))\": \(usage)") }
                state.panelRotation = (String(value[..<colon]), try turn(value[value.index(after: colon)...]))
            default: throw fail("\"\(printable(word))\": \(usage)")
            }
        }
        return state
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

    /// What a line says after its time: the grammar's words written back (reading them
    /// gives the same input); nil for an input no word says.
    public static func words(of entry: Entry) -> String? {
        switch entry {
        case .reload(let path): return "reload \(path)"
        case .push(let session, let uid, let path): return "push \(session ?? "-") \(uid) \(path)"
        case .input(let input): return words(of: input)
        }
    }

    private static func words(of input: SeatInput) -> String? {
        /// An agent's session and uid, when the caller is one a timeline names.
        func caller(_ peer: BusPeer) -> String? {
            peer == agent(session: peer.session, uid: peer.uid) ? "\(peer.session ?? "-") \(peer.uid)" : nil
        }
        switch input {
        case .event, .deadline, .appeared, .ended, .reload, .push:
            return nil
        case .request(let request, _, _):
            switch request {
            case .setMode(let mode): return "mode \(mode)"
            case .pause(let seconds): return "pause \(number(seconds))"
            case .resume: return "resume"
            case .lockTouch(let on): return on ? "lock-touch" : "unlock-touch"
            case .rotate(let degrees): return "rotate \(degrees)"
            case .rotatePanel(let node, let degrees): return "rotate \(degrees) \(node)"
            }
        case .locked(let locked, _, _): return locked ? "lock" : "unlock"
        case .logindSilent: return "silent"
        case .sessionInFront(let inFront, _, _): return inFront ? "back" : "away"
        case .displayRotated(let turn, _, _): return "orientation \(turn.sensorOrientation)"
        case .tabletMode(let tablet, _, _): return tablet ? "tablet on" : "tablet off"
        case .appInFront(let app, _, _): return "app \(name(of: app))"
        case .windows(let layout, _, _): return "windows \(words(of: layout))"
        case .screens(let screens, _, _):
            return "screens " + (screens.screens.isEmpty ? "none" : screens.screens.map { "\($0.name)=\($0.state)" }.joined(separator: " "))
        case .activeSession(let session, _, _): return "session " + (session.map { "\($0.id) \($0.user)" } ?? "none")
        case .peerLeft(let name, _):
            let parts = name.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "agent", let uid = UInt32(parts[2]) else { return nil }
            return "leave \(parts[1]) \(uid)"
        case .reportedApp(let app, let peer, _, _): return caller(peer).map { "report \($0) \(name(of: app))" }
        case .reportedWindows(let layout, let peer, _, _): return caller(peer).map { "report-windows \($0) \(words(of: layout))" }
        case .inspect(let request, let peer, _): return caller(peer).map { "inspect \($0) \(request.rawValue)" }
        case .isolationFailed(let node, let error, _): return "twin-failed \(node) \(error)"
        case .calibrated(let node, let matrix, _):
            return "calibrate \(node) " + (matrix.map { [$0.a, $0.b, $0.c, $0.d, $0.e, $0.f].map(number).joined(separator: " ") } ?? "none")
        case .followed(let state, _):
            var parts: [String] = []
            if let mode = state.mode { parts.append("mode=\(mode)") }
            if let paused = state.paused { parts.append("paused=\(paused ? "yes" : "no")") }
            if let locked = state.locked { parts.append("locked=\(locked ? "yes" : "no")") }
            if let touchLocked = state.touchLocked { parts.append("touch-locked=\(touchLocked ? "yes" : "no")") }
            if let turn = state.rotation { parts.append("rotation=\(turn.degrees)") }
            if let (node, turn) = state.panelRotation { parts.append("panel=\(node):\(turn.degrees)") }
            return parts.isEmpty ? nil : "service " + parts.joined(separator: " ")
        case .sleeping(let asleep, _, _): return asleep ? "sleep" : "awake"
        case .gone(let node, _, _): return "unplug \(node)"
        case .stopping: return "stop"
        }
    }

    private static func words(of layout: WindowLayout?) -> String {
        guard let layout else { return "none" }
        let windows = layout.windows.map { "\(name(of: $0.app))@\($0.frame.x),\($0.frame.y),\($0.frame.width)x\($0.frame.height)" }
        return (["\(layout.screen.width)x\(layout.screen.height)"] + windows).joined(separator: " ")
    }

    /// An application as a line names it: its first name (a line says only one), or none.
    private static func name(of app: AppInFront?) -> String { app?.names.first ?? "none" }

    /// A number as a line says it: whole ones without a point.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
