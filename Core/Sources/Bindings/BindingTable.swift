import Gestures

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
