import Config
import TouchCore

/// What a replayed seat is given, in order: its recordings' events merged by time (the
/// first recording's on a tie), each recording's end after its last event, and a
/// timeline's lines before the events of their time. `replay` plays it as fast as it
/// can (`Playback`); `run --replay` at its pace through the daemon's loop.
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
    public private(set) var items: [Item] = []

    /// `inputs`: the seat's other inputs (a timeline's, see `inputs(of:)`), in time order.
    public init(recordings: [Recording], inputs: [SeatInput] = []) {
        self.recordings = recordings
        var inputs = Array(inputs.reversed())  // taken from the end
        var next = [Int](repeating: 0, count: recordings.count)
        items.reserveCapacity(recordings.reduce(inputs.count) { $0 + $1.events.count + 1 })
        while let index = Self.earliest(recordings, next) {
            let recording = recordings[index]
            let event = recording.events[next[index]]
            while let input = inputs.last, input.time <= event.time {
                items.append(.input(inputs.removeLast()))
            }
            items.append(.event(node: recording.path, event))
            next[index] += 1
            if next[index] == recording.events.count { items.append(.ended(node: recording.path, at: event.time)) }
        }
        items.append(contentsOf: inputs.reversed().map(Item.input))
    }

    /// The recording whose next event is the earliest (the first one on a tie).
    private static func earliest(_ recordings: [Recording], _ next: [Int]) -> Int? {
        var found: Int?
        for index in recordings.indices where next[index] < recordings[index].events.count {
            if let best = found, recordings[best].events[next[best]].time <= recordings[index].events[next[index]].time { continue }
            found = index
        }
        return found
    }

    /// A timeline's lines as the seat's inputs, each saying its line as why. A panel is
    /// named by its recording's path, or its file name; `configurations` holds each
    /// configuration a `reload` names, by the path as written there.
    public static func inputs(of timeline: Timeline, recordings: [Recording],
                              configurations: [String: Configuration]) throws(FileError) -> [SeatInput] {
        var inputs: [SeatInput] = []
        for line in timeline.lines {
            let why = "\(timeline.path):\(line.line)"
            switch line.entry {
            case .request(.rotatePanel(let named, let degrees)):
                let node = recordings.first { $0.path == named }?.path
                    ?? recordings.first { $0.path.split(separator: "/").last.map(String.init) == named }?.path
                guard let node else {
                    throw FileError(path: timeline.path, line: line.line, message: "no recording \"\(printable(named))\" is replayed; name one of \(recordings.map(\.path).joined(separator: ", "))")
                }
                inputs.append(.request(.rotatePanel(node: node, degrees: degrees), why: why, at: line.time))
            case .request(let request):
                inputs.append(.request(request, why: why, at: line.time))
            case .locked(let locked):
                inputs.append(.locked(locked, why: why, at: line.time))
            case .reload(let path):
                guard let config = configurations[path] else {
                    throw FileError(path: timeline.path, line: line.line, message: "the configuration \(printable(path)) was not read")
                }
                inputs.append(.reload(config, at: line.time))
            }
        }
        return inputs
    }
}
