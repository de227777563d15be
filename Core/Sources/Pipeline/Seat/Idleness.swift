import TouchCore

/// Whether the seat is in use (`[daemon] idle_s`): touched last at a time (or started then,
/// untouched since), or idle once `idle_s` passed without a touch, until the next one.
public enum Idleness: Equatable, Sendable {
    /// Nothing known yet: no configuration given, no touch.
    case unstarted
    case active(lastTouch: Timestamp)
    case idle

    /// The seat starts being watched at `time` (its first configuration).
    mutating func start(at time: Timestamp) {
        if self == .unstarted { self = .active(lastTouch: time) }
    }

    /// A touch began at `time`: true when it ends the idleness.
    mutating func touched(at time: Timestamp) -> Bool {
        let wasIdle = self == .idle
        self = .active(lastTouch: time)
        return wasIdle
    }

    /// When it turns idle, after `idleMS` without a touch (nil: never).
    func deadline(idleMS: Double?) -> Timestamp? {
        guard let idleMS, case .active(let last) = self else { return nil }
        return last + idleMS
    }

    /// Idle once `idleMS` has run out by `time`: true when it did just now.
    mutating func advance(to time: Timestamp, idleMS: Double?) -> Bool {
        guard let due = deadline(idleMS: idleMS), due <= time else { return false }
        self = .idle
        return true
    }
}

/// When the last touch is said (the LastTouch property's change on the bus): at most once
/// every `last_touch_interval_s`; a touch within it is said when the interval is over, so
/// that the latest is always said and a flood of touches costs one message an interval.
public struct LastTouchPace: Equatable, Sendable {
    private var saidAt: Timestamp?
    private var unsaid: Timestamp?

    /// When the unsaid touch is due to be said.
    func due(intervalMS: Double) -> Timestamp? {
        guard unsaid != nil, let saidAt else { return nil }
        return saidAt + intervalMS
    }

    /// A touch began at `time`: the time to say now, or nil (kept until due).
    mutating func offer(_ time: Timestamp, intervalMS: Double) -> Timestamp? {
        if let saidAt, time < saidAt + intervalMS {
            unsaid = time
            return nil
        }
        saidAt = time
        unsaid = nil
        return time
    }

    /// The kept touch, when due by `time`.
    mutating func take(by time: Timestamp, intervalMS: Double) -> Timestamp? {
        guard let due = due(intervalMS: intervalMS), due <= time, let touch = unsaid else { return nil }
        saidAt = time
        unsaid = nil
        return touch
    }
}
