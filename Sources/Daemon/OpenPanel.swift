import Input
import Loop
import TouchCore

/// A panel the daemon has open for the seat: the device it reads and, when isolated, the
/// uinput twin that gets what no gesture takes. A replay's has neither.
final class OpenPanel {
    let node: String
    let device: EvdevDevice?
    var twin: UinputDevice?

    init(node: String, device: EvdevDevice?) {
        self.node = node
        self.device = device
    }
}

/// How the seat's time relates to the monotonic clock: a live device's kernel timestamps
/// already are monotonic; a recording is replayed from `origin` at `speed`.
struct SeatClock {
    /// Monotonic µs at which seat time 0 happens, and seat µs per monotonic µs.
    let origin: Int64
    let speed: Double

    static let monotonic = SeatClock(origin: 0, speed: 1)

    /// Saturating: a deadline at the end of time (a tap allowed to last forever) stays there.
    func monotonic(_ t: Timestamp) -> Int64 { origin.addingSaturated(Double(t.microseconds) / speed) }
    func seatTime(_ monotonic: Int64) -> Timestamp { Timestamp(microseconds: Int64(0).addingSaturated(Double(monotonic - origin) * speed)) }
}

/// The panels the daemon reads, and what it knows of those it could not open; the
/// tablet-mode switches it reads beside them.
struct Touchscreens {
    /// By node: their devices and twins. A replay's is its path, with neither.
    var open: [String: OpenPanel] = [:]
    /// By node: the switches that say tablet mode (see TabletSwitches.swift).
    var switches: [String: EvdevDevice] = [:]
    /// udev's monitor, while hotplug is followed.
    var udev: Udev?
    /// The node `--device` names: the only one read.
    var onlyNode: String?
    /// Those udev reports that could not be opened (permissions, errors).
    var unopened = Set<String>()
    /// That none is there to read has been said.
    var saidWaiting = false
    /// Whether screens are lit, read when a touch begins (see `wake_latch`); found anew
    /// when udev says a DRM device or a backlight changed.
    let screens = ScreenSensor()
    /// That twins cannot be recorded has been said.
    var saidTwinsUnrecorded = false
}
