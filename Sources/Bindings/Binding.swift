import Gestures
import TouchCore

/// What a configured gesture does when it fires: a shell command, a D-Bus signal, or both.
public struct Binding: Equatable, Sendable {
    public var gesture: String
    public var command: String?
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
    public func command(for event: GestureEvent) -> String? {
        guard let command, event.phase == .recognized || commandPhases.contains(event.phase) else { return nil }
        return command
    }

    /// Signals go out for every phase: continuous gestures stream without spawning anything.
    public func signals(_ event: GestureEvent) -> Bool { signal }
}

/// The gesture as a command sees it: environment variables, never text in the command.
public enum GestureEnvironment {
    public static func variables(_ e: GestureEvent, device: String) -> [(String, String)] {
        var v = [
            ("GESTURE_NAME", e.name), ("GESTURE_TYPE", e.type.rawValue), ("GESTURE_PHASE", e.phase.rawValue),
            ("GESTURE_FINGERS", String(e.fingers)), ("GESTURE_X", decimal(e.location.x)), ("GESTURE_Y", decimal(e.location.y)),
        ]
        if let d = e.direction { v.append(("GESTURE_DIRECTION", d.rawValue)) }
        if let s = e.scale { v.append(("GESTURE_SCALE", decimal(s))) }
        if let r = e.rotation { v.append(("GESTURE_ROTATION", decimal(r))) }
        if let s = e.velocity { v.append(("GESTURE_VELOCITY", decimal(s))) }
        v.append(("GESTURE_DEVICE", device))
        return v
    }

    /// Four decimals, as replay prints them.
    static func decimal(_ x: Double) -> String { fixed(x, decimals: 4) }
}
