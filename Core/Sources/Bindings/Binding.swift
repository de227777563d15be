import Gestures
import TouchCore

/// What a configured gesture does when it fires (`actions`), and for a continuous one in
/// between: wheel turns as its fingers move (`scroll`), actions as it crosses steps.
public struct Binding: Equatable, Codable, Sendable {
    public var gesture: String
    public var actions: BoundActions
    /// Continuous gestures: the phases that run the command (default: ended). Discrete
    /// gestures run it when recognized.
    public var commandPhases: Set<GesturePhase>
    /// How many of its commands may run at once.
    public var maxRunning: Int
    public var scroll: Scroll?
    public var steps: Steps?
    public var hold: Hold?
    /// `touchpad = true`: the gesture's fingers go to gestured's virtual touchpad.
    public var touchpad = false
    /// Whose it is: the machine's, unless a session's user's configuration was merged in
    /// (`Configuration.merging`).
    public var owner = BindingOwner.machine

    public init(gesture: String, command: String? = nil, signal: Bool = false,
                commandPhases: Set<GesturePhase> = [.ended], maxRunning: Int = 1) {
        self.gesture = gesture
        actions = BoundActions(command: command, signal: signal)
        self.commandPhases = commandPhases
        self.maxRunning = maxRunning
    }

    /// Whether this event's phase is one the binding acts on: when recognized, or in the
    /// phases `on` names.
    public func acts(on event: GestureEvent) -> Bool {
        event.phase == .recognized || commandPhases.contains(event.phase)
    }

    /// The command to run for this event, if any.
    public func command(for event: GestureEvent) -> CommandForm? {
        acts(on: event) ? actions.commandForm : nil
    }

    /// Whether performing it needs gestured's virtual devices (keys, clicks, wheels).
    public var needsVirtualDevices: Bool {
        actions.needsVirtualDevices || scroll != nil || hold != nil || touchpad || (steps.map { $0.increase.needsVirtualDevices || $0.decrease.needsVirtualDevices } ?? false)
    }

    /// Whether it emits D-Bus signals, itself or in its steps.
    public var signals: Bool { actions.signal || (steps.map { $0.increase.signal || $0.decrease.signal } ?? false) }
}
