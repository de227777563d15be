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
        for line in timeline.lines {
            /// A panel, by its recording's path or file name.
            func node(_ named: String) throws(FileError) -> String {
                let node = recordings.first { $0.path == named }?.path
                    ?? recordings.first { $0.path.split(separator: "/").last.map(String.init) == named }?.path
                guard let node else {
                    throw FileError(path: timeline.path, line: line.line, message: "no recording \"\(printable(named))\" is replayed; name one of \(recordings.map(\.path).joined(separator: ", "))")
                }
                return node
            }
            func read<Read>(_ path: String, from files: [String: Read]) throws(FileError) -> Read {
                guard let read = files[path] else {
                    throw FileError(path: timeline.path, line: line.line, message: "the configuration \(printable(path)) was not read")
                }
                return read
            }
            switch line.entry {
            case .reload(let path):
                inputs.append(.reload(try read(path, from: configurations), at: line.time))
            case .push(let session, let uid, let path):
                inputs.append(.push(try read(path, from: pushes), by: Timeline.agent(session: session, uid: uid), at: line.time))
            case .input(.request(.rotatePanel(let named, let degrees), let why, let time)):
                inputs.append(.request(.rotatePanel(node: try node(named), degrees: degrees), why: why, at: time))
            case .input(.gone(let named, let why, let time)):
                inputs.append(.gone(node: try node(named), why: why, at: time))
            case .input(.isolationFailed(let named, let error, let time)):
                inputs.append(.isolationFailed(node: try node(named), error: error, at: time))
            case .input(.calibrated(let named, let matrix, let time)):
                inputs.append(.calibrated(node: try node(named), matrix, at: time))
            case .input(.followed(var state, let time)):
                if let (named, turn) = state.panelRotation { state.panelRotation = (try node(named), turn) }
                inputs.append(.followed(state, at: time))
            case .input(let input):
                inputs.append(input)
            }
        }
        return inputs
    }
}
