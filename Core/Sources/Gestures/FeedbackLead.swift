/// What the overlay says of a touch sequence's gestures: the one furthest toward firing,
/// how far (0 to 1: its threshold reached), and whether it fired, will fire, or nothing
/// can any more (`Arbiter.lead`).
public struct FeedbackLead: Equatable, Sendable {
    public enum Verdict: String, Sendable {
        case deciding
        case willFire = "will-fire"
        case fired
        case nothingMatches = "nothing-matches"
        /// Nothing matches because the touch lock is on: only its unlocking gestures may.
        case touchLocked = "touch-locked"
    }

    public var gesture: String?
    public var progress: Double
    public var verdict: Verdict

    public init(gesture: String?, progress: Double, verdict: Verdict) {
        self.gesture = gesture
        self.progress = progress
        self.verdict = verdict
    }
}
