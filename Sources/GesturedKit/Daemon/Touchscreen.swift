import Config
import Gestures
import TouchCore

/// One touchscreen in the daemon: its pipeline, and how its event times relate to the monotonic clock (a recording replayed at a speed, or a
/// live device whose kernel timestamps already are monotonic).
final class Touchscreen {
    let name: String
    let description: DeviceDescription
    private(set) var pipeline: DevicePipeline
    /// A reloaded configuration, taken over when no finger is down.
    var pendingConfig: Configuration?
    /// Monotonic µs at which device time 0 happens, and device µs per monotonic µs.
    let origin: Int64
    let speed: Double
    /// Receives each step's gesture events and, when explaining, the state changes.
    var onGestures: ([GestureEvent], [Transition]) -> Void = { _, _ in }

    init(description: DeviceDescription, config: Configuration, origin: Int64 = 0, speed: Double = 1) throws(DevicePipeline.Refusal) {
        name = description.name
        self.description = description
        pipeline = try DevicePipeline(description, config: config)
        self.origin = origin
        self.speed = speed
    }

    func monotonic(_ t: Timestamp) -> Int64 { origin + Int64(Double(t.microseconds) / speed) }
    func deviceTime(_ monotonic: Int64) -> Timestamp { Timestamp(microseconds: Int64(Double(monotonic - origin) * speed)) }

    var fingersDown: Bool { pipeline.decoder.frame.touches.contains { $0.phase.isDown } }

    /// The earliest recognizer deadline, on the monotonic clock.
    var nextDeadline: Int64? { pipeline.arbiter.nextDeadline.map(monotonic) }

    /// Feeds one event; a completed frame goes through the recognizers.
    func feed(_ event: InputEvent) {
        guard pipeline.decoder.process(event) else { return }
        pipeline.arbiter.process(pipeline.decoder.frame)
        report()
        takePendingConfigWhenIdle()
    }

    /// Runs the recognizer deadlines due by `now` (monotonic).
    func advance(to now: Int64) {
        guard let deadline = pipeline.arbiter.nextDeadline, monotonic(deadline) <= now else { return }
        pipeline.arbiter.advance(to: deviceTime(now))
        report()
        takePendingConfigWhenIdle()
    }

    /// The device is gone or its events were lost: touches and gestures under way are cancelled.
    func cancelTouches(at now: Int64) {
        guard pipeline.decoder.cancelAll(at: deviceTime(now)) else { return }
        pipeline.arbiter.process(pipeline.decoder.frame)
        report()
    }

    private func report() {
        let arbiter = pipeline.arbiter
        if !arbiter.events.isEmpty || !arbiter.transitions.isEmpty { onGestures(arbiter.events, arbiter.transitions) }
        arbiter.transitions.removeAll(keepingCapacity: true)
    }

    /// A reload takes effect between touch sequences, so no gesture in flight is lost.
    private func takePendingConfigWhenIdle() {
        guard let next = pendingConfig, !fingersDown, pipeline.arbiter.nextDeadline == nil else { return }
        pendingConfig = nil
        guard let rebuilt = try? DevicePipeline(description, config: next) else { return }
        let explaining = pipeline.arbiter.explaining
        pipeline = rebuilt
        pipeline.arbiter.explaining = explaining
    }
}
