import RealModule
import TouchCore

/// A pan with `scroll = true` and `kinetic = true` lifted while moving: its release
/// velocity (millimetres a second, as the fingers went, y downwards), for the seat to
/// go on scrolling with.
public struct FlingAction: Equatable, Sendable {
    public var binding: String
    public var velocity: Point
    public var scroll: Scroll
}

/// The wheel after a fling, as a scroll view glides: the release velocity decays
/// exponentially with `decayMS` (UIKit's normal deceleration, 0.998 a millisecond), the
/// wheel turned by what the decaying velocity covers, `tickMS` apart, until it is slower
/// than `stopSpeed` or `longestMS` has passed. The seat stops it at the next touch.
public struct KineticScroll: Sendable {
    public let binding: String
    private var velocity: Point
    private let scroll: Scroll
    private var wheel = WheelTurn()
    private var last: Timestamp
    private let start: Timestamp
    /// When to turn the wheel next; nil once it has stopped.
    public private(set) var due: Timestamp?

    /// 1 / -ln(0.998): a velocity is a third of itself after half a second.
    public static let decayMS = 499.5
    public static let tickMS = 1000.0 / 60
    /// Slower than this, a fling is a finger that stopped: no glide, and the glide ends.
    public static let stopSpeed = 20.0
    public static let longestMS = 4000.0

    /// nil when the fingers were not moving fast enough to glide.
    public init?(_ fling: FlingAction, at time: Timestamp) {
        guard fling.velocity.length.isFinite, fling.velocity.length >= Self.stopSpeed else { return nil }
        binding = fling.binding
        velocity = fling.velocity
        scroll = fling.scroll
        last = time
        start = time
        due = time + Self.tickMS
    }

    /// The wheel's turn for the glide from the last tick to `time`.
    public mutating func advance(to time: Timestamp) -> ScrollAction {
        let seconds = max(0, time.milliseconds(since: last)) / 1000
        let decay = Double.exp(-seconds * 1000 / Self.decayMS)
        // What an exponentially slowing movement covers: v·τ·(1 − e^(−t/τ)).
        let moved = velocity * (Self.decayMS / 1000 * (1 - decay))
        velocity = velocity * decay
        last = time
        let over = velocity.length < Self.stopSpeed || time.milliseconds(since: start) >= Self.longestMS
        due = over ? nil : time + Self.tickMS
        return wheel.turn(binding, by: moved, scroll)
    }
}

/// A pan's velocity at the lift: its movement over the last `windowMS` before it, from
/// the few positions kept (a finger that stopped before lifting has none).
struct ReleaseVelocity: Sendable {
    private var samples: [(time: Timestamp, translation: Point)] = []
    static let kept = 8
    static let windowMS = 60.0

    mutating func add(_ translation: Point, at time: Timestamp) {
        if samples.count == Self.kept { samples.removeFirst() }
        samples.append((time, translation))
    }

    /// Millimetres a second; nil with fewer than two positions in the window.
    var velocity: Point? {
        guard let last = samples.last,
              let first = samples.first(where: { last.time.milliseconds(since: $0.time) <= Self.windowMS }),
              last.time.milliseconds(since: first.time) > 0 else { return nil }
        return (last.translation - first.translation) * (1000 / last.time.milliseconds(since: first.time))
    }
}
