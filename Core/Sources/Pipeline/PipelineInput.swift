import Bindings
import Config
import Delivery
import Gestures
import TouchCore

/// What a touchscreen's pipeline is given: a kernel event, the passing of its next
/// deadline, or the loss of its touches (device gone, recording ended).
public enum PipelineInput: Equatable, Sendable {
    case event(InputEvent)
    case deadline(Timestamp)
    case cancel(Timestamp)

    public var time: Timestamp {
        switch self {
        case .event(let event): event.time
        case .deadline(let time), .cancel(let time): time
        }
    }
}
