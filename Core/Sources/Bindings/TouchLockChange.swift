/// A gesture's `touch_lock`: what it does to the touch lock, in which no touch reaches
/// applications and no gesture fires but those that unlock.
public enum TouchLockChange: String, Codable, CaseIterable, Sendable {
    case lock, unlock, toggle

    /// Whether it may end the lock: such a gesture is the only kind that fires while it holds.
    public var unlocks: Bool { self != .lock }

    /// The lock after it, from `locked`.
    public func applied(to locked: Bool) -> Bool {
        switch self {
        case .lock: true
        case .unlock: false
        case .toggle: !locked
        }
    }
}
