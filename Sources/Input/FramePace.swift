import TouchCore

/// Frames written to a uinput device at a device's pace: one batch at most every
/// `spacing` microseconds, in order, the others queued until their time. The kernel
/// stamps a frame when it is written, and libinput judges a touchpad's fingers by those
/// stamps: two frames the daemon writes a fraction of a millisecond apart (the panel's
/// frames reached it together, while it was busy) look like a sensor's jump and are
/// dropped, with an error in the compositor's log. At most `capacity` batches wait:
/// past it they go out at once (late frames are no use to anyone).
struct FramePace {
    let spacing: Int64
    let capacity: Int
    private var lastWrite: Int64?
    private var waiting: [[InputEvent]] = []

    init(spacing: Int64, capacity: Int) {
        self.spacing = spacing
        self.capacity = capacity
    }

    /// When the next waiting batch goes out (nil: none waits).
    var due: Int64? { waiting.isEmpty ? nil : (lastWrite ?? 0) + spacing }

    /// The batches to write now: this one, if its time has come and none waits before it.
    mutating func submit(_ events: [InputEvent], now: Int64) -> [[InputEvent]] {
        waiting.append(events)
        if waiting.count > capacity { return drain(now: now) }
        return take(now: now)
    }

    /// The waiting batch whose time has come, if any.
    mutating func take(now: Int64) -> [[InputEvent]] {
        guard let due, now >= due else { return [] }
        lastWrite = now
        return [waiting.removeFirst()]
    }

    /// Every waiting batch, at once: the daemon stops, or too many wait.
    mutating func drain(now: Int64) -> [[InputEvent]] {
        defer { waiting = [] }
        if !waiting.isEmpty { lastWrite = now }
        return waiting
    }
}
