import Loop
import Pipeline
import SystemIO
import TouchCore

/// The loop's other source: recordings standing in for touchscreens and a timeline of
/// the seat's other inputs (a `SeatScript`), each due when its time comes on the seat's
/// clock, as a device's events would be. It can play several rounds back to back, each
/// a second after the last one's end, for long runs (without a timeline).
struct RecordingSource {
    private var script: SeatScript
    let rounds: Int
    private var round = 0
    /// Microseconds from a round's start to the next's.
    private let period: Double

    init(_ script: SeatScript, rounds: Int = 1) {
        self.script = script
        let events = script.recordings.flatMap { [$0.events.first, $0.events.last] }.compactMap(\.?.time.microseconds)
        let times = events + script.inputs.map(\.time.microseconds)
        self.rounds = script.upcoming == nil ? 0 : rounds
        period = max(0, Double(times.max() ?? 0) - Double(times.min() ?? 0)) + 1_000_000
    }

    var isFinished: Bool { round == rounds }
    /// When the next item is due, in seat time.
    var nextTime: Timestamp? {
        guard !isFinished, let item = script.upcoming else { return nil }
        return Timestamp(microseconds: item.time.microseconds.addingSaturated(Double(round) * period))
    }

    /// The next item if it is due by `time`, its events and end moved to this round.
    mutating func nextDue(by time: Timestamp) -> SeatScript.Item? {
        guard let due = nextTime, due <= time, var item = script.next() else { return nil }
        switch item {
        case .event(let node, var event):
            event.time = due
            item = .event(node: node, event)
        case .ended(let node, _):
            item = .ended(node: node, at: due)
        case .input:
            break  // no rounds with a timeline
        }
        if script.upcoming == nil {
            script.rewind()
            round += 1
        }
        return item
    }
}

extension Daemon {
    func startReplay(_ paths: [String], timeline: String?, speed: Double, rounds: Int) throws {
        let script = try SeatScript.load(paths, device: nil, timeline: timeline)
        clock = SeatClock(origin: monotonicMicroseconds(), speed: speed)
        for recording in script.recordings {
            let path = recording.path
            touchscreens.open[path] = OpenPanel(node: path, device: nil)
            try? seat.step(.appeared(SeatDevice(node: path, description: recording.description), at: now))  // no request
            let refused = seat.effects.lazy.compactMap { effect -> PanelUse.IgnoredBecause? in
                if case .ignored(_, let reason) = effect { reason } else { nil }
            }.first
            if let refused {
                touchscreens.open[path] = nil
                throw FileError(path: path, message: "nothing to replay: '\(recording.description.name)' is \(refused)")
            }
            performSeatEffects()
            logger.info("replaying \(path) as '\(recording.description.name)' at \(speed)× speed\(rounds > 1 ? ", \(rounds) times" : "")")
        }
        replay = RecordingSource(script, rounds: rounds)
        // A replay in a desktop's session hears it too: per-application gestures end to end.
        followTheDesktop()
    }

    static let replayBatch = 256

    /// Gives the seat the replay's items that are due, at most `replayBatch` a wake-up: a
    /// replay the daemon cannot keep up with still leaves the loop room for signals
    /// (SIGCHLD reaps) and commands' output. True when items are still due: the replay
    /// is behind.
    @discardableResult
    func feedReplay(now: Int64) -> Bool {
        guard var source = replay else { return false }
        let time = clock.seatTime(now)
        var budget = Self.replayBatch
        while budget > 0, let item = source.nextDue(by: time) {
            switch item {
            case .event(let node, let event): step(.event(node: node, event))
            case .ended(let node, let at): step(.ended(node: node, at: at))
            case .input(.reload(let config, let at)):
                // As a SIGHUP's would: the daemon-wide settings too.
                do { try apply(config, at: at) } catch { logger.error("reload: rejected, keeping the running configuration:\n\(error)") }
            case .input(let input):
                do { try take(input) } catch {
                    if case .request(_, let why, _) = input { logger.error("\(why): error: \(error)") }
                }
            }
            budget -= 1
        }
        replay = source
        return source.nextTime.map { $0 <= time } ?? false
    }
}
