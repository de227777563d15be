import Bindings
import Gestures
import TouchCore

public struct DaemonSettings: Equatable, Codable, Sendable {
    public enum Bus: String, CaseIterable, Codable, Sendable { case system, session, none }
    public enum LogLevel: String, CaseIterable, Codable, Sendable { case debug, info, warning, error }

    public var bus = Bus.system
    /// Run commands as this user when the daemon runs as root.
    public var user: String?
    public var commandTimeoutMS = 30_000
    public var logLevel = LogLevel.info
    /// Grab every touchscreen and hand what no gesture takes to a uinput twin.
    public var isolate = false
    /// The longest an isolated panel's frames are held while a gesture may still take them.
    public var maxDelayMS = 1000.0
    /// A touchscreen's touches fire no gesture while its pen is near, and this long after
    /// it leaves: the palm resting meanwhile.
    public var palmAfterPenMS = 500.0
    /// How panels without a `[[device]]` rotation are turned.
    public var rotation = RotationSetting.fixed(.upright)
    /// The mode at start, and the one a mode's timeout returns to.
    public var mode = GestureSpec.defaultMode
    /// Modes no gesture enters, for the control interface's SetMode.
    public var modes: [String] = []
    /// How long a mode other than the start mode lasts without a gesture (nil: until switched).
    public var modeTimeoutSeconds: Double?
    /// A touch sequence that begins while its panel's screen is dark wakes the screen and
    /// does nothing else: no gesture, and nothing to an isolated panel's twin.
    public var wakeLatch = true
    /// After the waking sequence's last finger lifts, touches that begin within this long
    /// are waking ones too: the screen takes a moment to light.
    public var wakeGuardMS = 200.0
    /// Wakes the screen instead of gestured's pointer nudging it.
    public var wakeCommand: CommandForm?
    /// The session in front's agent draws each finger's trail and the gesture being
    /// recognized, on an overlay that takes no input (`FeedbackFrame`).
    public var overlay = false
    /// The touch lock holds through a restart of gestured (and of the machine): written to
    /// its state directory while on.
    public var keepTouchLock = false
    /// After this long without a touch on any panel the seat is idle: `idle_command` runs,
    /// `idle_mode` is switched to, the Idle property says so; the first touch after it
    /// runs `active_command` and switches to `active_mode`. Nil: never idle.
    public var idleSeconds: Double?
    public var idleCommand: CommandForm?
    public var idleMode: String?
    public var activeCommand: CommandForm?
    public var activeMode: String?
    /// The least time between two changes of the LastTouch property said on the bus.
    public var lastTouchIntervalSeconds = 1.0

    public init() {}
}
