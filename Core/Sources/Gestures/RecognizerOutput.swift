import TouchCore

/// What recognizers write to: the gesture events of this step and, when explaining,
/// every state change with its reason.
final class RecognizerOutput {
    @exclusivity(unchecked) var events: [GestureEvent] = []
    @exclusivity(unchecked) var transitions: [Transition] = []
    /// State machine events that cannot happen: bugs, reported with every step.
    @exclusivity(unchecked) var bugs: [String] = []
    @exclusivity(unchecked) var explaining = false
    /// The time being processed: a frame's, or a deadline's.
    @exclusivity(unchecked) var now = Timestamp(microseconds: 0)
    /// Counts touch sequences (fingers down after none were): what a recognizer's touches
    /// belong to.
    @exclusivity(unchecked) var sequence = 0

    init() { events.reserveCapacity(16) }

    func clear() {
        events.removeAll(keepingCapacity: true)
        transitions.removeAll(keepingCapacity: true)
        bugs.removeAll(keepingCapacity: true)
    }
}
