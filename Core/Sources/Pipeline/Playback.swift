import Config
import TouchCore

/// Runs recordings through a seat as fast as possible, deadlines included: what `replay`
/// prints, `eval` scores and the data tests check. Several recordings (a pen and its
/// panel, two panels) play on one seat, merged by time, each on its own node (its path).
public struct Playback {
    public var config: Configuration
    public var explain = false
    /// Configurations that take over from a time on (device µs), as a SIGHUP would.
    public var reloads: [(time: Timestamp, config: Configuration)] = []
    /// Built-in stroke templates this person drew are left out (held-out evaluation).
    public var leftOutPerson: String?
    /// Each change of mode, pause, lock or rotation, with its time, as the daemon makes
    /// them (on the recordings' clock).
    public var onControl: (Timestamp, ControlChange) -> Void = { _, _ in }

    public init(config: Configuration) {
        self.config = config
    }

    /// Calls `body` with every step that did something. A device the configuration
    /// ignores plays nothing. Throws when the device is no touchscreen, and when the
    /// recording ends with fingers down (they are cancelled first, so nothing stays open).
    /// True when `leftOutPerson` had built-in templates that were left out.
    @discardableResult
    public func play(_ recording: Recording, _ body: (Step) -> Void) throws(FileError) -> Bool {
        try play([recording]) { _, step in body(step) }
    }

    /// Several recordings on one seat; `body` gets each step with its recording's path.
    /// Throws for the first recording that is no touchscreen (before playing) or ends with
    /// fingers down (after playing them all).
    @discardableResult
    public func play(_ recordings: [Recording], _ body: (_ node: String, Step) -> Void) throws(FileError) -> Bool {
        let seat = Seat(config: config)
        seat.explaining = explain
        var notTouchscreen: Recording?
        /// Touches cancelled because a recording ended with them down, by node.
        var cancelledAtEnd: [String: Int] = [:]
        var ending: String?
        func perform(_ effect: SeatEffect) {
            switch effect {
            case .step(let node, _, let step):
                if node == ending, case .cancel = step.input { cancelledAtEnd[node, default: 0] += step.frame?.touches.count ?? 0 }
                body(node, step)
            case .control(let change, let time):
                onControl(time, change)
            case .ignored(let node, .noPositionAxes):
                notTouchscreen = notTouchscreen ?? recordings.first { $0.path == node }
            case .ignored, .run, .signal, .write, .isolate, .letGo, .announce, .virtualDevices, .log:
                break
            }
        }
        func run(_ input: SeatInput) {
            do { try seat.step(input, perform) } catch {}  // no request here is refused: they are not requests
        }
        let start = recordings.compactMap { $0.events.first?.time }.min() ?? Timestamp(microseconds: 0)
        for recording in recordings {
            run(.appeared(SeatDevice(node: recording.path, description: recording.description), at: start))
        }
        if let recording = notTouchscreen {
            throw FileError(path: recording.path, message: "the device '\(recording.description.name)' has no position axes (A: lines for codes 00/01 or 35/36): not a touchscreen")
        }
        let leftOut = leftOutPerson.map { person in seat.panels.contains { $0.pipeline.leaveOutStrokeTemplates(of: person) } } ?? false
        var reloads = reloads[...]
        var next = [Int](repeating: 0, count: recordings.count)
        /// The recording whose next event is the earliest (the first one on a tie).
        func earliest() -> Int? {
            var found: Int?
            for index in recordings.indices where next[index] < recordings[index].events.count {
                if let best = found, recordings[best].events[next[best]].time <= recordings[index].events[next[index]].time { continue }
                found = index
            }
            return found
        }
        while let index = earliest() {
            let recording = recordings[index]
            let event = recording.events[next[index]]
            while let reload = reloads.first, reload.time <= event.time {
                reloads = reloads.dropFirst()
                run(.reload(reload.config, at: reload.time))
            }
            run(.event(node: recording.path, event))
            next[index] += 1
            if next[index] == recording.events.count {
                // As the daemon does when a recording it replays ends: the touches still
                // down are cancelled at its last event.
                ending = recording.path
                run(.ended(node: recording.path, at: event.time))
                ending = nil
            }
        }
        // The decisions waiting on time are made (a single tap waiting for a double tap).
        // One that stays due once run is a bug the seat says; it is not run again.
        var ran: Timestamp?
        while let due = seat.nextTouchDeadline, ran.map({ $0 < due }) ?? true {
            ran = due
            run(.deadline(due))
        }
        if let recording = recordings.first(where: { cancelledAtEnd[$0.path, default: 0] > 0 }) {
            throw FileError(path: recording.path, line: recording.lastEventLine,
                            message: "the recording ends with \(cancelledAtEnd[recording.path]!) touch(es) still down (reported cancelled): truncated?")
        }
        return leftOut
    }
}
