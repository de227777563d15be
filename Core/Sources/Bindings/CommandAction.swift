import Gestures

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
