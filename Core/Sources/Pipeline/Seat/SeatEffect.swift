import Bindings
import Config
import Gestures
import TouchCore

/// What the seat's step asks the edge to do (`SeatEffects`, which says in what order). The daemon performs
/// them all; `monitor` only shows and logs; a replay prints them.
public enum SeatEffect {
    /// A panel's step that did something, for showing (`--print`, `monitor`) and the log.
    case step(node: String, geometry: DeviceGeometry, Step)
    case run(CommandAction)
    /// Emit `org.gestured.Gestured1.Gesture`.
    case signal(GestureEvent, device: String, step: StepCount?)
    /// Events to write to one of gestured's uinput devices, each frame ending in SYN_REPORT.
    case write(VirtualDevice, [InputEvent])
    /// What may fire, or how panels are turned, changed: the log, `--print` and the bus
    /// say so. `time`: when, on the seat's clock.
    case control(ControlChange, at: Timestamp)
    /// Not read (a twin, ignored by a rule, no position axes): close it.
    case ignored(node: String, PanelUse.IgnoredBecause)
    /// Grab the panel and make its twin (`.isolationFailed` if that fails).
    case isolate(node: String)
    /// Stop reading the panel (and release it): gone, ignored now, or to be opened anew
    /// once the step is done (`reopen`), as the configuration now reads it.
    case letGo(node: String, reopen: Bool)
    /// The bus's properties that changed, and the panels whose Rotation did.
    case announce([ControlProperty], rotatedPanels: [String])
    /// A command of a gesture of the session in front's user: for their session's agent
    /// to run as them, in their session. Never the command: the binding and the gesture.
    case toAgent(AgentAction)
    /// A session's action not performed: that session is not in front (its sequence was
    /// abandoned as another came in front). `firstSinceSwitch`: the first for it since
    /// the session in front last changed, which the log says; the rest only at debug.
    case dropped(Action, session: String, firstSinceSwitch: Bool)
    /// An update of the overlay, for the session in front's agent alone (its bus name).
    case feedback(FeedbackFrame, agent: String)
    /// A tagged edge swipe's progress, for the session in front's agent (its bus name) to
    /// say on its session bus.
    case progress(ProgressUpdate, agent: String)
    /// An update for the inspector (its bus name): the overlay's frame with its detail.
    case inspection(FeedbackFrame, to: String)
    /// Ask every session's agent to say itself again (its application in front, its
    /// configuration): another session is in front.
    case wantAgents
    /// Offer every input device present again (`appeared`): this session came back in
    /// front of the seat, and what it let go is to be read again.
    case rescan
    /// The gestures that need the virtual keyboard and pointer (none: remove them), and
    /// whether any needs the virtual touchpad.
    case virtualDevices(needing: [String], touchpad: Bool)
    /// The touch lock as it is to be after a restart (`keep_touch_lock`): remembered in
    /// the daemon's state directory, or forgotten.
    case keepTouchLock(Bool)
    case log(SeatLogLevel, String)
}

/// gestured's uinput devices.
public enum VirtualDevice: Equatable, Sendable {
    /// An isolated panel's (by its node).
    case twin(String)
    case keyboard
    case pointer
    case touchpad
}

public enum SeatLogLevel: Sendable {
    case debug, info, warning, error
}

/// What a session's agent is told when one of its user's gestures fires: the binding's
/// name (the agent finds its command in its own user's file), whether to run its command
/// or emit its signal (on the session bus), and the gesture's `GESTURE_*` variables.
/// `agent`: its unique name on the system bus.
public struct AgentAction: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case command, signal
    }

    public var agent: String
    public var binding: String
    public var kind: Kind
    public var environment: [String]

    public init(agent: String, binding: String, kind: Kind, environment: [String]) {
        self.agent = agent
        self.binding = binding
        self.kind = kind
        self.environment = environment
    }
}
