import Input
import Pipeline
import TouchCore

/// One touchscreen in the daemon: its pipeline, the device it reads (none for a
/// replay), and how its event times relate to the monotonic clock: a recording replayed
/// at a speed, or a live device whose kernel timestamps already are monotonic.
final class Touchscreen {
    let node: String
    let pipeline: TouchscreenPipeline
    let device: EvdevDevice?
    /// An isolated panel's uinput twin, which gets what no gesture takes.
    var twin: UinputDevice?
    /// What pairs a touchscreen with its pen (see `Udev.deviceGroup`); nil for a replay.
    var group: String?
    /// Monotonic µs at which device time 0 happens, and device µs per monotonic µs.
    private let origin: Int64
    private let speed: Double

    init(node: String, pipeline: TouchscreenPipeline, device: EvdevDevice?, origin: Int64 = 0, speed: Double = 1) {
        self.node = node
        self.pipeline = pipeline
        self.device = device
        self.origin = origin
        self.speed = speed
    }

    var name: String { pipeline.device.name }

    /// Saturating: a deadline at the end of time (a tap allowed to last forever) stays there.
    func monotonic(_ t: Timestamp) -> Int64 { origin.addingSaturated(Double(t.microseconds) / speed) }
    func deviceTime(_ monotonic: Int64) -> Timestamp { Timestamp(microseconds: Int64(0).addingSaturated(Double(monotonic - origin) * speed)) }

    /// The earliest recognizer deadline, on the monotonic clock.
    var nextDeadline: Int64? { pipeline.nextDeadline.map(monotonic) }
}
