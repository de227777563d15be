import Bindings
import Config
import TouchCore

/// Runs recordings through a seat as fast as possible, deadlines included: what `replay`
/// prints, `eval` scores and the data tests check. Several recordings (a pen and its
/// panel, two panels) play on one seat, merged by time, each on its own node (its path),
/// with a timeline's inputs among them (see `SeatScript`).
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
    /// The key names a user's configuration handed over may use (libevdev's, from the edge).
    public var keyCodes: () -> KeyCodes = { KeyCodes() }
    /// Each step's effects of a recording played alone (its commands, signals, keys; its
    /// steps and changes go to `play`'s body and `onControl` besides), as the daemon would
    /// perform them.
    public var onEffects: (SeatEffects) -> Void = { _ in }

    public init(config: Configuration) {
        self.config = config
    }

    /// Calls `body` with every step that did something. A device the configuration
    /// ignores plays nothing. Throws when the device is no touchscreen, and when the
    /// recording ends with fingers down (they are cancelled first, so nothing stays open).
    /// True when `leftOutPerson` had built-in templates that were left out.
    @discardableResult
    public func play(_ recording: Recording, _ body: (Step) -> Void) throws(FileError) -> Bool {
        let script = SeatScript(recordings: [recording], inputs: reloads.map { .reload($0.config, at: $0.time) })
        return try play(script) { effects in
            for effect in effects {
                switch effect {
                case .step(_, _, let step): body(step)
                case .control(let change, let time): onControl(time, change)
                default: break
                }
            }
            onEffects(effects)
        }
    }

    /// Plays a whole seat: `body` gets each step's effects, as the daemon would perform
    /// them; `refused` each request of the script the seat refuses (the seat goes on).
    /// Throws for the first recording that is no touchscreen (before playing) or that
    /// ends with fingers down (after playing them all).
    @discardableResult
    public func play(_ script: SeatScript, _ body: (SeatEffects) -> Void,
                     refused: (SeatInput, ControlRefusal) -> Void = { _, _ in }) throws(FileError) -> Bool {
        let seat = Seat(config: config, keyCodes: keyCodes)
        seat.explaining = explain
        var notTouchscreen: Recording?
        /// Touches cancelled because a recording ended with them down, by node.
        var cancelledAtEnd: [String: Int] = [:]
        var ending: String?
        func run(_ input: SeatInput) {
            var refusal: ControlRefusal?
            do { try seat.step(input) } catch { refusal = error }
            for effect in seat.effects {
                switch effect {
                case .step(let node, _, let step):
                    if node == ending, case .cancel = step.input { cancelledAtEnd[node, default: 0] += step.frame?.touches.count ?? 0 }
                case .ignored(let node, .noPositionAxes):
                    notTouchscreen = notTouchscreen ?? script.recordings.first { $0.path == node }
                default:
                    break
                }
            }
            body(seat.effects)
            if let refusal { refused(input, refusal) }
        }
        let start = script.recordings.compactMap { $0.events.first?.time }.min() ?? Timestamp(microseconds: 0)
        for recording in script.recordings {
            run(.appeared(SeatDevice(node: recording.path, description: recording.description), at: start))
        }
        if let recording = notTouchscreen {
            throw FileError(path: recording.path, message: "the device '\(recording.description.name)' has no position axes (A: lines for codes 00/01 or 35/36): not a touchscreen")
        }
        let leftOut = leftOutPerson.map { person in seat.panels.contains { $0.pipeline.leaveOutStrokeTemplates(of: person) } } ?? false
        var script = script
        while let item = script.next() {
            switch item {
            case .event(let node, let event):
                run(.event(node: node, event))
            case .ended(let node, let time):
                // As the daemon does when a recording it replays ends: the touches still
                // down are cancelled at its last event.
                ending = node
                run(.ended(node: node, at: time))
                ending = nil
            case .input(let input):
                run(input)
            }
        }
        // The decisions waiting on time are made (a single tap waiting for a double tap);
        // one that stays due once run is a bug the seat says, and is not run again.
        var ran: Timestamp?
        while let due = seat.nextTouchDeadline, ran.map({ $0 < due }) ?? true {
            ran = due
            run(.deadline(due))
        }
        if let recording = script.recordings.first(where: { cancelledAtEnd[$0.path, default: 0] > 0 }) {
            throw FileError(path: recording.path, line: recording.lastEventLine,
                            message: "the recording ends with \(cancelledAtEnd[recording.path]!) touch(es) still down (reported cancelled): truncated?")
        }
        return leftOut
    }
}
