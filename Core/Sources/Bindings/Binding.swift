import Gestures
import TouchCore

/// What a configured gesture does when it fires: a command, a D-Bus signal, or both.
public struct Binding: Equatable, Codable, Sendable {
    public var gesture: String
    /// `command` as written (see `CommandForm` for how it starts), or `exec`'s exact words.
    public var command: String?
    public var exec: [String]?
    public var signal: Bool
    /// Continuous gestures: the phases that run the command (default: ended). Discrete
    /// gestures run it when recognized.
    public var commandPhases: Set<GesturePhase>
    /// How many of its commands may run at once.
    public var maxRunning: Int

    public init(gesture: String, command: String? = nil, signal: Bool = false,
                commandPhases: Set<GesturePhase> = [.ended], maxRunning: Int = 1) {
        self.gesture = gesture
        self.command = command
        self.signal = signal
        self.commandPhases = commandPhases
        self.maxRunning = maxRunning
    }

    /// The command to run for this event, if any.
    public func command(for event: GestureEvent) -> CommandForm? {
        guard event.phase == .recognized || commandPhases.contains(event.phase) else { return nil }
        if let exec { return .direct(exec) }
        return command.map(CommandForm.init)
    }
}
