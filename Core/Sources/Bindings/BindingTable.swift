import Gestures
import RealModule
import TouchCore

/// A configuration's bindings by gesture name: what each gesture event does. It follows
/// the continuous gestures under way (their steps crossed, the wheel turned so far), so
/// one table serves one touchscreen.
public struct BindingTable: Sendable {
    private let byGesture: [String: Binding]
    /// By gesture under way with steps or scrolling: how far it has gone.
    private var progress: [String: Progress] = [:]
    private var crossings: [Int] = []

    private struct Progress {
        var counter = StepCounter()
        /// A pan's steps follow the axis it set out along: true for horizontal.
        var horizontal: Bool?
        var scrolled = Point.zero
        var wheel = WheelTurn()
        /// A kinetic scroll's last movements (at most `ReleaseVelocity.kept`): its speed at the lift.
        var release = ReleaseVelocity()
    }

    /// The first binding of a name wins (the configuration refuses duplicates).
    public init(_ bindings: [Binding]) {
        byGesture = Dictionary(bindings.map { ($0.gesture, $0) }, uniquingKeysWith: { first, _ in first })
        crossings.reserveCapacity(StepCounter.mostAtOnce)
    }

    public func binding(for gesture: String) -> Binding? { byGesture[gesture] }

    /// Whether any binding emits signals: the daemon connects to the bus at start then.
    public var signals: Bool { byGesture.values.contains(where: \.signals) }

    /// The actions of one event on one device, signal first: a listener hears of the
    /// gesture before the command it starts can act.
    public mutating func actions(for event: GestureEvent, device: String) -> [Action] {
        var actions: [OwnedAction] = []
        appendActions(for: event, device: device, to: &actions)
        return actions.map(\.action)
    }

    /// As `actions(for:device:)`, each with its binding's owner, into a buffer the caller
    /// reuses. `onlyTouchLock`: the gesture fired only because it may end the touch lock
    /// (the session locked, gestured paused, or another mode): its touch lock alone.
    public mutating func appendActions(for event: GestureEvent, device: String, onlyTouchLock: Bool = false,
                                       to actions: inout [OwnedAction]) {
        guard let binding = byGesture[event.name] else { return }
        if onlyTouchLock {
            if binding.acts(on: event), let change = binding.actions.touchLock {
                actions.append(OwnedAction(.touchLock(binding: binding.gesture, change), of: binding.owner))
            }
            return
        }
        let owner = binding.owner
        if binding.actions.signal { actions.append(OwnedAction(.signal(event, device: device, step: nil), of: owner)) }
        if binding.acts(on: event) { append(binding.actions, of: binding, event, device, step: nil, to: &actions) }
        guard binding.scroll != nil || binding.steps != nil || binding.hold != nil || binding.touchpad else { return }
        func hold(_ moment: HoldAction.Moment) {
            if let hold = binding.hold { actions.append(OwnedAction(.hold(HoldAction(binding: binding.gesture, moment, hold, at: event.location)), of: owner)) }
        }
        func touchpad(_ moment: TouchpadAction.Moment) {
            if binding.touchpad { actions.append(OwnedAction(.touchpad(TouchpadAction(binding: binding.gesture, moment, touches: event.touches)), of: owner)) }
        }
        switch event.phase {
        case .began:
            // Held first: a step's keys at the begin are pressed with alt already down.
            hold(.press)
            touchpad(.begin)
            progress[event.name] = Progress()
            follow(binding, event, device, to: &actions)
        case .changed:
            if binding.hold?.pointer == true { hold(.follow) }
            touchpad(.move)
            follow(binding, event, device, to: &actions)
        case .ended, .cancelled:
            if event.phase == .ended, let scroll = binding.scroll, scroll.kinetic, let velocity = progress[event.name]?.release.velocity,
               velocity.length >= KineticScroll.stopSpeed {
                actions.append(OwnedAction(.fling(FlingAction(binding: binding.gesture, velocity: velocity, scroll: scroll)), of: owner))
            }
            progress.removeValue(forKey: event.name)
            touchpad(.end)
            hold(.release)
        case .recognized:
            break
        }
    }

    private func append(_ bound: BoundActions, of binding: Binding, _ event: GestureEvent, _ device: String,
                        step: StepCount?, to actions: inout [OwnedAction]) {
        let owner = binding.owner
        if let keys = bound.keys { actions.append(OwnedAction(.keys(binding: binding.gesture, keys), of: owner)) }
        if let click = bound.click { actions.append(OwnedAction(.click(binding: binding.gesture, click, at: event.location), of: owner)) }
        if let command = bound.commandForm {
            let environment = GestureEnvironment.assignments(event, device: device, step: step)
            actions.append(OwnedAction(.run(CommandAction(binding: binding.gesture, command: command, environment: environment,
                                                          maxRunning: binding.maxRunning)), of: owner))
        }
        if let mode = bound.mode { actions.append(OwnedAction(.mode(binding: binding.gesture, mode), of: owner)) }
        if let seconds = bound.pauseSeconds { actions.append(OwnedAction(.pause(binding: binding.gesture, seconds: seconds), of: owner)) }
        if let change = bound.touchLock { actions.append(OwnedAction(.touchLock(binding: binding.gesture, change), of: owner)) }
    }

    /// A continuous gesture's steps crossed and wheel turned since its last event.
    private mutating func follow(_ binding: Binding, _ event: GestureEvent, _ device: String, to actions: inout [OwnedAction]) {
        guard var state = progress[event.name] else { return }
        if let scroll = binding.scroll, let translation = event.translation {
            let turn = state.wheel.turn(binding.gesture, by: translation - state.scrolled, scroll)
            state.scrolled = translation
            if scroll.kinetic { state.release.add(translation, at: event.time) }
            if turn.vertical != 0 || turn.horizontal != 0 { actions.append(OwnedAction(.scroll(turn), of: binding.owner)) }
        }
        if let steps = binding.steps, let position = Self.position(event, steps, &state) {
            crossings.removeAll(keepingCapacity: true)
            state.counter.cross(to: position, into: &crossings)
            var net = state.counter.net - crossings.reduce(0, +)
            for delta in crossings {
                net += delta
                let step = StepCount(delta: delta, net: net)
                let bound = delta > 0 ? steps.increase : steps.decrease
                if bound.signal { actions.append(OwnedAction(.signal(event, device: device, step: step), of: binding.owner)) }
                append(bound, of: binding, event, device, step: step, to: &actions)
            }
        }
        progress[event.name] = state
    }

    /// Where the gesture is, in steps from where it began: a pan's mm along the axis it
    /// set out on (right and up positive), a rotation's degrees (clockwise positive), a
    /// pinch's scale in factors of the step.
    private static func position(_ event: GestureEvent, _ steps: Steps, _ state: inout Progress) -> Double? {
        switch event.type {
        case .pan:
            guard let t = event.translation else { return nil }
            if state.horizontal == nil, t.x != 0 || t.y != 0 { state.horizontal = abs(t.x) >= abs(t.y) }
            return (state.horizontal == true ? t.x : -t.y) / steps.size
        case .rotate:
            return event.rotation.map { $0 * 180 / Double.pi / steps.size }
        case .pinch:
            guard let scale = event.scale, scale > 0 else { return nil }
            return Double.log(scale) / Double.log(steps.size)
        case .tap, .longPress, .swipe, .edgeSwipe, .checkmark, .chevron, .stroke:
            return nil
        }
    }
}
