import Gestures
import TouchCore

/// What the daemon does about a gesture event. Deciding it is pure (`BindingTable`);
/// performing it is the daemon's only job.
public enum Action: Equatable, Sendable {
    /// Run the binding's command with the gesture in its environment.
    case run(CommandAction)
    /// Emit `org.gestured.Gestured1.Gesture` for the event (with the step, for one).
    case signal(GestureEvent, device: String, step: StepCount?)
    /// Press and release keys on gestured's virtual keyboard.
    case keys(binding: String, KeySequence)
    /// Move gestured's virtual pointer to `location` (normalized over the touchscreen),
    /// then click there.
    case click(binding: String, Click, at: Point)
    /// Hold keys and a button for a continuous gesture, move the pointer with it, let go.
    case hold(HoldAction)
    /// Put a continuous gesture's fingers on gestured's virtual touchpad, move them, lift them.
    case touchpad(TouchpadAction)
    /// Turn gestured's virtual pointer's wheels.
    case scroll(ScrollAction)
    /// Go on turning them after the lift, gliding to a stop (`KineticScroll`).
    case fling(FlingAction)
    /// Switch every touchscreen to another mode's gestures, from its next touch sequence.
    case mode(binding: String, ModeSwitch)
    /// Let every touch through untouched for `seconds`: nothing fires.
    case pause(binding: String, seconds: Double)
    /// Lock or unlock touch: while locked, no touch reaches applications and only the
    /// gestures that unlock fire.
    case touchLock(binding: String, TouchLockChange)
}

extension Action {
    /// The gesture whose binding decided it.
    public var binding: String {
        switch self {
        case .run(let command): command.binding
        case .signal(let event, _, _): event.name
        case .keys(let binding, _), .click(let binding, _, _), .mode(let binding, _), .pause(let binding, _),
             .touchLock(let binding, _): binding
        case .hold(let hold): hold.binding
        case .touchpad(let touchpad): touchpad.binding
        case .scroll(let turn): turn.binding
        case .fling(let fling): fling.binding
        }
    }

    /// What kind of action it is, as the log and a replay name it.
    public var kind: String {
        switch self {
        case .run: "command"
        case .signal: "signal"
        case .keys: "keys"
        case .click: "click"
        case .hold: "hold"
        case .touchpad: "touchpad"
        case .scroll: "scroll"
        case .fling: "fling"
        case .mode: "mode"
        case .pause: "pause"
        case .touchLock: "touch lock"
        }
    }
}
