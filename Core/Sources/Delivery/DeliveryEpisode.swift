import Gestures
import TouchCore

/// Where an isolated panel's touch sequence stands with the twin.
public enum DeliveryEpisode: String, Sendable {
    /// No touches, nothing deciding: frames pass.
    case idle
    /// Touches down and gestures that may still take them: frames are held while one that
    /// delays touches may still be recognized, and pass otherwise.
    case deciding
    /// Every gesture failed, or one that does not cancel touches won: frames pass.
    case passing
    /// A gesture won the touches: the twin gets none of them.
    case withheld
}
