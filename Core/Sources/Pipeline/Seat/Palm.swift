import TouchCore

/// A touchscreen's palm under its paired pen (a pen of the same device group), as
/// libinput silences touches while a pen is in proximity: free; silenced while the pen
/// is near; still silenced until `palm_after_pen_ms` after it left, when a hand lifting
/// the pen may still rest.
public enum Palm: Equatable, Sendable {
    case free
    case penNear
    case fading(until: Timestamp)

    /// Whether its touchscreen's gestures are silenced.
    public var silenced: Bool { self != .free }

    /// When it becomes free if the pen stays away.
    public var deadline: Timestamp? {
        if case .fading(let until) = self { return until }
        return nil
    }

    /// The pen came near or left at `time`. The touchscreen is silenced when the pen
    /// comes near a free palm; leaving starts the fade.
    mutating func pen(near: Bool, at time: Timestamp, fadeMS: Double) {
        switch (self, near) {
        case (_, true): self = .penNear
        case (.penNear, false): self = .fading(until: time + fadeMS)
        case (.free, false), (.fading, false): break
        }
    }

    /// Free once the fade has run out by `time`; true when it did just now.
    mutating func advance(to time: Timestamp) -> Bool {
        guard let until = deadline, until <= time else { return false }
        self = .free
        return true
    }
}
