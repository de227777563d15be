import Pipeline
import SystemIO
import TouchCore

/// The loop's other source: a recording standing in for a touchscreen, its events due
/// when their time comes on the touchscreen's clock, as a device's would be. It can play
/// several rounds back to back, each a second after the last one's end, for long runs.
struct RecordingSource {
    let recording: Recording
    let rounds: Int
    private var round = 0
    private var next = 0
    /// Microseconds from a round's start to the next's.
    private let period: Double
    /// The time of the last event given, in device time.
    private(set) var lastTime: Timestamp?

    init(_ recording: Recording, rounds: Int = 1) {
        self.recording = recording
        self.rounds = recording.events.isEmpty ? 0 : rounds
        let first = recording.events.first?.time.microseconds ?? 0, last = recording.events.last?.time.microseconds ?? 0
        period = max(0, Double(last) - Double(first)) + 1_000_000
    }

    var isFinished: Bool { round == rounds }
    /// When the next event is due, in device time.
    var nextTime: Timestamp? {
        isFinished ? nil : Timestamp(microseconds: recording.events[next].time.microseconds.addingSaturated(Double(round) * period))
    }

    /// The next event if it is due by `time`.
    mutating func nextDue(by time: Timestamp) -> InputEvent? {
        guard let due = nextTime, due <= time else { return nil }
        var event = recording.events[next]
        event.time = due
        lastTime = due
        next += 1
        if next == recording.events.count { next = 0; round += 1 }
        return event
    }
}

extension Daemon {
    /// The replay's node: its path.
    var replayNode: String? {
        guard case .recording(let path, _, _) = options.source else { return nil }
        return path
    }

    func startReplay(_ path: String, speed: Double, rounds: Int) throws {
        let recording = try Recording.load(path)
        clock = SeatClock(origin: monotonicMicroseconds(), speed: speed)
        panels[path] = OpenPanel(node: path, device: nil)
        var refused: PanelUse.IgnoredBecause?
        do {
            try seat.step(.appeared(SeatDevice(node: path, description: recording.description), at: now)) { effect in
                if case .ignored(_, let reason) = effect { refused = reason } else { perform(effect) }
            }
        } catch {}  // no request
        if let refused {
            panels[path] = nil
            throw FileError(path: path, message: "nothing to replay: '\(recording.description.name)' is \(refused)")
        }
        replay = RecordingSource(recording, rounds: rounds)
        logger.info("replaying \(path) as '\(recording.description.name)' at \(speed)× speed\(rounds > 1 ? ", \(rounds) times" : "")")
    }

    static let replayBatch = 256

    /// Gives the seat the replay's events that are due, at most `replayBatch` a wake-up: a
    /// replay the daemon cannot keep up with still leaves the loop room for signals
    /// (SIGCHLD reaps) and commands' output. At its end, the touches still down are
    /// cancelled at its last event, as `replay` does. True when events are still due: the
    /// replay is behind.
    @discardableResult
    func feedReplay(now: Int64) -> Bool {
        guard var source = replay, let node = replayNode else { return false }
        let wasFinished = source.isFinished
        let time = clock.seatTime(now)
        var budget = Self.replayBatch
        while budget > 0, let event = source.nextDue(by: time) {
            step(.event(node: node, event))
            budget -= 1
        }
        replay = source
        if source.isFinished, !wasFinished, let end = source.lastTime { step(.ended(node: node, at: end)) }
        return source.nextTime.map { $0 <= time } ?? false
    }
}
