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

/// A configuration's bindings by gesture name: what each gesture event does.
public struct BindingTable: Sendable {
    private let byGesture: [String: Binding]

    /// The first binding of a name wins (the configuration refuses duplicates).
    public init(_ bindings: [Binding]) {
        byGesture = Dictionary(bindings.map { ($0.gesture, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func binding(for gesture: String) -> Binding? { byGesture[gesture] }

    /// Whether any binding emits signals: the daemon connects to the bus at start then.
    public var signals: Bool { byGesture.values.contains(where: \.signal) }

    /// The actions of one event on one device, signal first: a listener hears of the
    /// gesture before the command it starts can act.
    public func actions(for event: GestureEvent, device: String) -> [Action] {
        var actions: [Action] = []
        appendActions(for: event, device: device, to: &actions)
        return actions
    }

    /// As `actions(for:device:)`, into a buffer the caller reuses.
    public func appendActions(for event: GestureEvent, device: String, to actions: inout [Action]) {
        guard let binding = byGesture[event.name] else { return }
        if binding.signal { actions.append(.signal(event, device: device)) }
        if let command = binding.command(for: event) {
            actions.append(.run(CommandAction(binding: binding.gesture, command: command,
                                              environment: GestureEnvironment.assignments(event, device: device),
                                              maxRunning: binding.maxRunning)))
        }
    }
}
