import TouchCore

/// The virtual touchpad's frames, written at a touchpad's pace: one at most every
/// `spacing` microseconds of the monotonic clock, in order, the others waiting their turn.
/// The kernel stamps a frame when it is written, and libinput judges a touchpad's fingers
/// by those stamps: frames written a fraction of a millisecond apart (the panel's frames
/// reached the daemon together, while it was busy or still starting) look like a sensor's
/// jumps, and libinput drops their movement with an error in the compositor's log. So a
/// daemon that has fallen behind writes the fingers' movement late at their own pace
/// (`TouchpadFingers` made its frames at least 7 ms apart), catching up 2 ms a frame,
/// rather than all at once. At most `capacity` frames wait: past it every other movement
/// waiting is left out, the next one (whose positions are absolute) making it, so that
/// the fingers' speed doubles once instead. Pure: the edge writes what it returns, and
/// says when each write returned (`wrote`): the kernel stamped the frame before then, and
/// a daemon held up between reading the clock and writing would else stamp the next one
/// too soon after it.
public struct TouchpadPace: Sendable {
    public let spacing: Int64
    public let capacity: Int
    private var lastWrite: Int64?
    private var waiting: [[InputEvent]] = []

    /// 128 frames are at least 0.9 s of the fingers' movement.
    public init(spacing: Int64 = 5_000, capacity: Int = 128) {
        self.spacing = spacing
        self.capacity = max(capacity, 2)
    }

    /// When the next waiting frame goes out (nil: none waits).
    public var due: Int64? { waiting.isEmpty ? nil : (lastWrite ?? 0) + spacing }

    /// The frames to write now: this one, if its turn has come and none waits before it.
    public mutating func submit(_ frame: [InputEvent], now: Int64) -> [[InputEvent]] {
        waiting.append(frame)
        if waiting.count > capacity { leaveOutEveryOtherMove() }
        if waiting.count > capacity {
            // Nothing to leave out (fingers landing and lifting only): the oldest goes now.
            lastWrite = now
            return [waiting.removeFirst()]
        }
        return take(now: now)
    }

    /// The waiting frame whose turn has come, if any.
    public mutating func take(now: Int64) -> [[InputEvent]] {
        guard let due, now >= due else { return [] }
        lastWrite = now
        return [waiting.removeFirst()]
    }

    /// A frame it returned was written: the write returned at `time`.
    public mutating func wrote(at time: Int64) {
        lastWrite = max(lastWrite ?? time, time)
    }

    /// Every waiting frame, at once: the daemon stops.
    public mutating func drain(now: Int64) -> [[InputEvent]] {
        defer { waiting = [] }
        if !waiting.isEmpty { lastWrite = now }
        return waiting
    }

    /// A movement is left out only where a movement follows it: one before the fingers
    /// lift, or a landing, is never.
    private mutating func leaveOutEveryOtherMove() {
        var kept: [[InputEvent]] = []
        kept.reserveCapacity(waiting.count)
        var leaveOut = true
        for index in waiting.indices {
            if index + 1 < waiting.count, VirtualTouchpad.isMove(waiting[index]), VirtualTouchpad.isMove(waiting[index + 1]) {
                defer { leaveOut.toggle() }
                if leaveOut { continue }
            }
            kept.append(waiting[index])
        }
        waiting = kept
    }
}
