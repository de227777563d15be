import Config
import TouchCore

/// What a replayed seat is given, in order: its recordings' events merged by time (the
/// first recording's on a tie), each recording's end right after its last event, and a
/// timeline's inputs before the events of their time. Taken one item at a time (`next`),
/// merged as it goes: nothing is copied per event. `replay` plays it as fast as it can
/// (`Playback`); `run --replay` at its pace through the daemon's loop.
public struct SeatScript: Sendable {
    public enum Item: Sendable {
        case event(node: String, InputEvent)
        /// The recording's last event was given: its touches still down are cancelled.
        case ended(node: String, at: Timestamp)
        case input(SeatInput)

        public var time: Timestamp {
            switch self {
            case .event(_, let event): event.time
            case .ended(_, let time): time
            case .input(let input): input.time
            }
        }
    }

    public let recordings: [Recording]
    public let inputs: [SeatInput]
    /// Each recording's next event, the next input, and a recording just ended.
    private var nextEvents: [Int]
    private var nextInput = 0
    private var ending: Int?
    /// A timeline's `stop` was given: nothing comes after it.
    private var stopped = false

    /// `inputs`: the seat's other inputs (a timeline's, see `inputs(of:)`), in time order.
    /// Recordings written on one clock keep their places on it: the one that starts first
    /// starts at 0, the others as much later as they were written (evemu-record's files,
    /// each counted from its own first event, all start at 0).
    public init(recordings: [Recording], inputs: [SeatInput] = []) {
        let first = recordings.map(\.start).min() ?? Timestamp(microseconds: 0)
        self.recordings = recordings.map { recording in
            var recording = recording
            let offset = recording.start.microseconds.subtractingReportingOverflow(first.microseconds)
            if !offset.overflow, offset.partialValue > 0 {
                for i in recording.events.indices {
                    recording.events[i].time = Timestamp(microseconds: recording.events[i].time.microseconds.addingSaturated(Double(offset.partialValue)))
                }
            }
            return recording
        }
        self.inputs = inputs
        nextEvents = [Int](repeating: 0, count: recordings.count)
    }

    /// The next item, without taking it.
    public var upcoming: Item? {
        if stopped { return nil }
        if let ending { return .ended(node: recordings[ending].path, at: recordings[ending].events.last!.time) }
        let index = earliestRecording
        let event = index.map { recordings[$0].events[nextEvents[$0]] }
        if nextInput < inputs.count, event.map({ inputs[nextInput].time <= $0.time }) ?? true { return .input(inputs[nextInput]) }
        guard let index, let event else { return nil }
        return .event(node: recordings[index].path, event)
    }

    public mutating func next() -> Item? {
        guard let item = upcoming else { return nil }
        switch item {
        case .ended: ending = nil
        case .input(let input):
            nextInput += 1
            if case .stopping = input { stopped = true }
        case .event:
            let index = earliestRecording!
            nextEvents[index] += 1
            if nextEvents[index] == recordings[index].events.count { ending = index }
        }
        return item
    }

    /// From the start again (the daemon's rounds).
    public mutating func rewind() {
        nextEvents = nextEvents.map { _ in 0 }
        nextInput = 0
        ending = nil
        stopped = false
    }

    /// The recording whose next event is the earliest (the first one on a tie).
    private var earliestRecording: Int? {
        var found: Int?
        for index in recordings.indices where nextEvents[index] < recordings[index].events.count {
            if let best = found, recordings[best].events[nextEvents[best]].time <= recordings[index].events[nextEvents[index]].time { continue }
            found = index
        }
        return found
    }

    /// A timeline's lines as the seat's inputs, each saying its line as why. A panel is
    /// named by its recording's path, or its file name; `configurations` holds each
    /// configuration a `reload` names, by the path as written there; `pushes` each file a
    /// `push` names, parsed, not checked.
    public static func inputs(of timeline: Timeline, recordings: [Recording],
                              configurations: [String: Configuration], pushes: [String: UserPush] = [:]) throws(FileError) -> [SeatInput] {
        var inputs: [SeatInput] = []
        /// A panel, by its recording's path or file name.
        func node(_ named: String, _ line: Timeline.Line) throws(FileError) -> String {
            let node = recordings.first { $0.path == named }?.path
                ?? recordings.first { $0.path.split(separator: "/").last.map(String.init) == named }?.path
            guard let node else {
                throw FileError(path: timeline.path, line: line.line, message: "no recording \"\(printable(named))\" is replayed; name one of \(recordings.map(\.path).joined(separator: ", "))")
            }
            return node
        }
        for line in timeline.lines {
            let why = "\(timeline.path):\(line.line)"
            switch line.entry {
            case .request(.rotatePanel(let named, let degrees)):
                inputs.append(.request(.rotatePanel(node: try node(named, line), degrees: degrees), why: why, at: line.time))
            case .request(let request):
                inputs.append(.request(request, why: why, at: line.time))
            case .locked(let locked):
                inputs.append(.locked(locked, why: why, at: line.time))
            case .logindSilent:
                inputs.append(.logindSilent(why: why, at: line.time))
            case .sessionInFront(let inFront):
                inputs.append(.sessionInFront(inFront, why: why, at: line.time))
            case .app(let app):
                inputs.append(.appInFront(app, why: why, at: line.time))
            case .windows(let windows):
                inputs.append(.windows(windows, why: why, at: line.time))
            case .screens(let screens):
                inputs.append(.screens(screens, why: why, at: line.time))
            case .reload(let path):
                guard let config = configurations[path] else {
                    throw FileError(path: timeline.path, line: line.line, message: "the configuration \(printable(path)) was not read")
                }
                inputs.append(.reload(config, at: line.time))
            case .activeSession(let session):
                inputs.append(.activeSession(session, why: why, at: line.time))
            case .push(let session, let uid, let path):
                guard let push = pushes[path] else {
                    throw FileError(path: timeline.path, line: line.line, message: "the configuration \(printable(path)) was not read")
                }
                let name = Timeline.agentName(session: session, uid: uid)
                inputs.append(.push(push, by: BusPeer(name: name, uid: uid, session: session), at: line.time))
            case .agentLeft(let session, let uid):
                inputs.append(.peerLeft(name: Timeline.agentName(session: session, uid: uid), at: line.time))
            case .reportedApp(let session, let uid, let app):
                let agent = BusPeer(name: Timeline.agentName(session: session, uid: uid), uid: uid, session: session)
                inputs.append(.reportedApp(app, by: agent, why: why, at: line.time))
            case .reportedWindows(let session, let uid, let windows):
                let agent = BusPeer(name: Timeline.agentName(session: session, uid: uid), uid: uid, session: session)
                inputs.append(.reportedWindows(windows, by: agent, why: why, at: line.time))
            case .unplug(let named):
                inputs.append(.gone(node: try node(named, line), why: "unplugged (\(why))", at: line.time))
            case .stop:
                inputs.append(.stopping(at: line.time))
            }
        }
        return inputs
    }
}
