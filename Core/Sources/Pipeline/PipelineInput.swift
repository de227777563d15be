import Bindings
import Config
import Delivery
import Gestures
import TouchCore

/// What a touchscreen's pipeline is given: a kernel event, the passing of its next
/// deadline, the loss of its touches (device gone, recording ended), the sequence under
/// way abandoned (another session in front, another configuration of its user), its palm
/// silenced or no longer (the seat's `Palm`, from its pen), or a new gate (a lock, a
/// pause, another mode), in force from that moment.
public enum PipelineInput: Equatable, Sendable {
    case event(InputEvent)
    case deadline(Timestamp)
    case cancel(Timestamp)
    /// Its touches cancelled and every gesture still waiting (a tap waiting to rule out a
    /// double tap, a multi-tap's next tap) failed, for `why`: nothing of the sequence fires
    /// after it.
    case abandon(why: String, at: Timestamp)
    case silence(Bool, at: Timestamp)
    case gate(GestureGate, at: Timestamp)

    public var time: Timestamp {
        switch self {
        case .event(let event): event.time
        case .deadline(let time), .cancel(let time), .abandon(_, let time), .silence(_, let time), .gate(_, let time): time
        }
    }

    /// Whether it ends the sequence under way for another owner (`abandon`).
    public var abandons: Bool {
        if case .abandon = self { true } else { false }
    }
}
