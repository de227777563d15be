import Bindings
import Config
import Delivery
import Gestures
import TouchCore

/// What a touchscreen's pipeline is given: a kernel event, the passing of its next
/// deadline, the loss of its touches (device gone, recording ended), its palm silenced
/// or no longer (the seat's `Palm`, from its pen), or a new gate (a lock, a pause,
/// another mode), in force from that moment.
public enum PipelineInput: Equatable, Sendable {
    case event(InputEvent)
    case deadline(Timestamp)
    case cancel(Timestamp)
    case silence(Bool, at: Timestamp)
    case gate(GestureGate, at: Timestamp)

    public var time: Timestamp {
        switch self {
        case .event(let event): event.time
        case .deadline(let time), .cancel(let time), .silence(_, let time), .gate(_, let time): time
        }
    }
}
