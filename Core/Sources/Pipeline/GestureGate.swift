import Gestures

/// Which of the configured gestures may fire: those of the mode, none while paused, and
/// while the session is locked only those marked `when_locked`. A touchscreen's pipeline
/// runs only those recognizers, so an isolated panel's twin gets every touch the others
/// would have taken.
public struct GestureGate: Equatable, Sendable {
    public var mode: String
    public var paused = false
    public var locked = false

    public init(mode: String, paused: Bool = false, locked: Bool = false) {
        self.mode = mode
        self.paused = paused
        self.locked = locked
    }

    public func admits(_ gesture: GestureSpec) -> Bool {
        !paused && gesture.fires(inMode: mode) && (!locked || gesture.whenLocked)
    }

    /// Why the gate keeps `gesture` from firing; nil when it admits it.
    public func exclusion(of gesture: GestureSpec) -> String? {
        if paused { return "gestured is paused" }
        if locked, !gesture.whenLocked { return "the session is locked" }
        if !gesture.fires(inMode: mode) { return "not in mode \"\(mode)\"" }
        return nil
    }
}
