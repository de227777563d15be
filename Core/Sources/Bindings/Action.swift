import Gestures

/// What the daemon does about a gesture event. Deciding it is pure (`BindingTable`);
/// performing it is the daemon's only job.
public enum Action: Equatable, Sendable {
    /// Run the binding's command with the gesture in its environment.
    case run(CommandAction)
    /// Emit `org.gestured.Gestured1.Gesture` for the event.
    case signal(GestureEvent, device: String)
}
