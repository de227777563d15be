import Config
import Gestures
import TouchCore

/// Runs a recording through the decoder and an arbiter as fast as possible, deadlines
/// included: what `replay` prints and `eval` scores.
public struct Playback {
    public var config: Configuration
    public var explain = false

    public init(config: Configuration) {
        self.config = config
    }

    /// Calls `frame` for every touch frame and `step` after every arbiter step that
    /// produced events or transitions. Throws when the recording ends with fingers down
    /// (they are cancelled first, so nothing stays open).
    public func play(_ recording: Recording, frame: (TouchFrame) -> Void = { _ in },
                     step: (_ events: [GestureEvent], _ transitions: [Transition]) -> Void) throws(FileError) {
        var pipeline: DevicePipeline
        do {
            pipeline = try DevicePipeline(recording.description, config: config)
        } catch {
            if error == .ignored { return }
            throw FileError(path: recording.path, message: "the device '\(recording.description.name)' has no position axes (A: lines for codes 00/01 or 35/36): not a touchscreen")
        }
        let arbiter = pipeline.arbiter
        arbiter.explaining = explain
        func report() {
            if !arbiter.events.isEmpty || !arbiter.transitions.isEmpty { step(arbiter.events, arbiter.transitions) }
            arbiter.transitions.removeAll(keepingCapacity: true)
        }
        for event in recording.events where pipeline.decoder.process(event) {
            frame(pipeline.decoder.frame)
            arbiter.process(pipeline.decoder.frame)
            report()
        }
        let end = recording.events.last?.time ?? Timestamp(microseconds: 0)
        let cutShort = pipeline.decoder.cancelAll(at: end)
        if cutShort {
            frame(pipeline.decoder.frame)
            arbiter.process(pipeline.decoder.frame)
            report()
        }
        // Decisions still waiting on a deadline (a single tap waiting for a double tap).
        while let deadline = arbiter.nextDeadline {
            arbiter.advance(to: deadline)
            report()
        }
        if cutShort {
            throw FileError(path: recording.path, line: recording.lastEventLine,
                            message: "the recording ends with \(pipeline.decoder.frame.touches.count) touch(es) still down (reported cancelled): truncated?")
        }
    }
}
