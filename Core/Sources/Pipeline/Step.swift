import Bindings
import Config
import Delivery
import Gestures
import TouchCore

/// Which steps a seat hands the edge as `.step` effects: every one that did something
/// (replay, `run --print`, `monitor`, the debug log), or the notable ones alone (a service
/// logging at its info level), which spares copying each frame's step into an effect
/// nobody reads.
public enum StepsShown: Sendable {
    case every, notable
}

/// What one input did, and what to do about it.
public struct Step: Sendable {
    /// What the step answered: the input given, or a deadline that came due before it.
    public internal(set) var input: PipelineInput
    /// The touch frame the input completed (with touches in it), if any.
    public var frame: TouchFrame?
    public var events: [GestureEvent] = []
    /// Every recognizer state change with its reason, when explaining.
    public var transitions: [Transition] = []
    /// What the bindings say to do, in order, each with whose binding it is.
    public var actions: [OwnedAction] = []
    /// An isolated panel's events for its uinput twin, each frame ending in SYN_REPORT.
    public var twin: [InputEvent] = []
    /// An isolated panel's delivery decisions (held, delivered, dropped, cancelled) and,
    /// when explaining, its episode's changes.
    public var delivery: [DeliveryNote] = []
    /// Recognizer state machine events that cannot happen: bugs to log, none expected.
    public var bugs: [String] = []
    /// A pen node's tool came near (true) or left (false): for its touchscreen's pipeline.
    public var penNear: Bool?
    /// When to give `.deadline` if no event comes first; nil when nothing waits on time.
    public var nextDeadline: Timestamp?
    /// When explaining, at a sequence's start: the window under its first touch, and which
    /// gestures fire for its application (see `apps_window`).
    public var underTouch: String?
    /// A touch sequence began that wakes the screen (see `wake_latch`), and why: it
    /// fires nothing and reaches no twin.
    public var wakes: String?
    /// A touch sequence began on a screen still dark long after a touch woke it, and acts
    /// (see `WakeLatch.givesUpMS`), and why.
    public var stillDark: String?

    init(_ input: PipelineInput, nextDeadline: Timestamp? = nil) {
        self.input = input
        self.nextDeadline = nextDeadline
    }

    /// Nothing happened worth reporting: no frame, gesture event, transition or action.
    public var isQuiet: Bool {
        frame == nil && events.isEmpty && transitions.isEmpty && actions.isEmpty && twin.isEmpty && delivery.isEmpty && penNear == nil && underTouch == nil && wakes == nil && stillDark == nil
    }

    /// What a log at its info level says: a gesture that fired, began or ended, or a bug.
    public var isNotable: Bool {
        !bugs.isEmpty || events.contains { $0.phase != .changed }
    }

    mutating func clear(for input: PipelineInput) {
        self.input = input
        frame = nil
        events.removeAll(keepingCapacity: true)
        transitions.removeAll(keepingCapacity: true)
        actions.removeAll(keepingCapacity: true)
        bugs.removeAll(keepingCapacity: true)
        twin.removeAll(keepingCapacity: true)
        delivery.removeAll(keepingCapacity: true)
        penNear = nil
        nextDeadline = nil
        underTouch = nil
        wakes = nil
        stillDark = nil
    }
}
