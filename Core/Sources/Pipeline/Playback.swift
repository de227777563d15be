import Config
import TouchCore

/// Runs a recording through a touchscreen pipeline as fast as possible, deadlines
/// included: what `replay` prints, `eval` scores and the data tests check.
public struct Playback {
    public var config: Configuration
    public var explain = false
    /// Configurations that take over from a time on (device µs), as a SIGHUP would.
    public var reloads: [(time: Timestamp, config: Configuration)] = []
    /// Built-in stroke templates this person drew are left out (held-out evaluation).
    public var leftOutPerson: String?
    /// Each mode switch and pause the gestures make, with its time, as the daemon makes
    /// them (on the recording's clock).
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
        let pipeline: TouchscreenPipeline
        do {
            pipeline = try TouchscreenPipeline(recording.description, config: config)
        } catch {
            if error == .ignored { return false }
            throw FileError(path: recording.path, message: "the device '\(recording.description.name)' has no position axes (A: lines for codes 00/01 or 35/36): not a touchscreen")
        }
        pipeline.explaining = explain
        let leftOut = leftOutPerson.map { pipeline.leaveOutStrokeTemplates(of: $0) } ?? false
        var reloads = reloads[...]
        var cancelled = 0
        var control = ModeController(config)
        /// When the gate changed outside a step (a reload, the pause's end), until the
        /// pipeline is given it; a step's own change is given while it is performed.
        var gateChanged: Timestamp?
        func take(_ changes: [ControlChange], at time: Timestamp) {
            guard !changes.isEmpty else { return }
            for change in changes { onControl(time, change) }
            gateChanged = time
        }
        func perform(_ step: Step) {
            if case .cancel = step.input { cancelled += step.frame?.touches.count ?? 0 }
            if !step.isQuiet || !step.bugs.isEmpty { body(step) }
            let time = step.input.time
            if !step.events.isEmpty { control.gestureFired(at: time) }
            take(step.actions.compactMap { control.perform($0, at: time) }, at: time)
            if let time = gateChanged {
                gateChanged = nil
                pipeline.give(control.gate, at: time)
            }
        }
        func run(_ input: PipelineInput) {
            if let time = gateChanged {
                gateChanged = nil
                pipeline.step(.gate(control.gate, at: time), perform)
            }
            pipeline.step(input, perform)
        }
        for event in recording.events {
            while let reload = reloads.first, reload.time <= event.time {
                reloads = reloads.dropFirst()
                run(.deadline(reload.time))
                take(control.reconfigure(reload.config, at: reload.time).map { [$0] } ?? [], at: reload.time)
                do { try pipeline.reload(reload.config) } catch {
                    // The new configuration ignores the device: the daemon lets it go.
                    run(.cancel(event.time))
                    return leftOut
                }
            }
            // As the daemon's timer: the pause's end and the mode's timeout when due, each
            // in its turn, not at the recording's end.
            while let due = control.nextDeadline, due <= event.time {
                run(.deadline(due))
                take(control.advance(to: due), at: due)
            }
            run(.event(event))
        }
        // As the daemon does when a recording it replays ends: the touches still down are
        // cancelled at its last event, and the decisions waiting on time are made (a
        // single tap waiting for a double tap).
        let end = recording.events.last?.time ?? Timestamp(microseconds: 0)
        if pipeline.fingersDown { run(.cancel(end)) }
        let stillDown = cancelled
        run(.deadline(Timestamp(microseconds: .max)))
        if stillDown > 0 {
            throw FileError(path: recording.path, line: recording.lastEventLine,
                            message: "the recording ends with \(stillDown) touch(es) still down (reported cancelled): truncated?")
        }
        return leftOut
    }
}
