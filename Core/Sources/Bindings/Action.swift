import Gestures

/// What the daemon does about a gesture event. Deciding it is pure (`BindingTable`);
/// performing it is the daemon's only job.
public enum Action: Equatable, Sendable {
    /// Run the binding's command with the gesture in its environment.
    case run(CommandAction)
    /// Emit `org.gestured.Gestured1.Gesture` for the event.
    case signal(GestureEvent, device: String)
}

/// A command to start, directly or with `/bin/sh -c`, with `environment` added.
public struct CommandAction: Equatable, Sendable {
    /// The gesture whose binding it is: its output is logged under this name, and
    /// `maxRunning` counts per binding.
    public var binding: String
    public var command: CommandForm
    /// `NAME=VALUE`, the gesture's `GESTURE_*` variables.
    public var environment: [String]
    public var maxRunning: Int

    public init(binding: String, command: CommandForm, environment: [String], maxRunning: Int) {
        self.binding = binding
        self.command = command
        self.environment = environment
        self.maxRunning = maxRunning
    }
}
