import Config
import Gestures
import TouchCore

/// Everything that changes what the seat does, each at a time on the seat's clock (a live
/// device's kernel time, which is the monotonic clock; a replay's recorded time). The
/// rare inputs that carry much are boxed (`indirect`): an event, given thousands of times
/// a second, is copied small.
public enum SeatInput: Sendable {
    /// A kernel event of a panel the seat reads.
    case event(node: String, InputEvent)
    /// Nothing came before this time: what waits on time up to it is done.
    case deadline(Timestamp)
    /// An input device is there to be read (plugged in, present at start, a recording).
    indirect case appeared(SeatDevice, at: Timestamp)
    /// Its twin could not be made: read beside applications instead.
    indirect case isolationFailed(node: String, error: String, at: Timestamp)
    /// udev says a panel's calibration (LIBINPUT_CALIBRATION_MATRIX; nil: none), as it may
    /// after any change of its properties: a new one reopens the panel (see `recalibrate`).
    indirect case calibrated(node: String, CalibrationMatrix?, at: Timestamp)
    /// A panel went away (unplugged, read failed): its touches are cancelled.
    indirect case gone(node: String, why: String, at: Timestamp)
    /// A recording came to its end: its touches still down are cancelled; its deadlines run on.
    case ended(node: String, at: Timestamp)
    /// The daemon stops: touches under way are cancelled (an isolated panel's twin sees
    /// them end) and whatever gestured's keyboard and pointer hold goes up.
    case stopping(at: Timestamp)
    /// A configuration, already accepted: the first one too, given once at start.
    indirect case reload(Configuration, at: Timestamp)
    /// A call of the control interface or a line of a replay's timeline (see
    /// `ControlRequest`); `why` says whose, for the log.
    indirect case request(ControlRequest, why: String, at: Timestamp)
    /// logind's LockedHint.
    indirect case locked(Bool, why: String, at: Timestamp)
    /// logind says nothing of the lock (away, not answering, answering nonsense, the
    /// system bus gone): see `LockKnowledge`.
    indirect case logindSilent(why: String, at: Timestamp)
    /// Whether the session a user's own daemon serves is the one in front of the seat
    /// (logind's Active): while another is, it reads no panel (see `SeatPresence`).
    indirect case sessionInFront(Bool, why: String, at: Timestamp)
    /// The application in front, as a desktop says it; nil when none says any more.
    indirect case appInFront(AppInFront?, why: String, at: Timestamp)
    /// The application in front, as a caller on the system bus reports it (a session's
    /// agent): taken only from one who acts for the session in front (`SeatSessions`).
    indirect case reportedApp(AppInFront?, by: BusPeer, why: String, at: Timestamp)
    /// The session in front of seat0 (logind's ActiveSession; nil: none). The system
    /// service's: its user's gestures are in force with the machine's, from now.
    indirect case activeSession(SeatSession?, why: String, at: Timestamp)
    /// A user's configuration, handed over by a caller on the system bus (their session's
    /// agent): taken only from one who acts for the session in front.
    indirect case push(UserPush, by: BusPeer, at: Timestamp)
    /// A caller left the system bus (a reporter, an agent).
    indirect case peerLeft(name: String, at: Timestamp)
    /// Where the desktop's windows are, as it says; nil when none says any more.
    indirect case windows(WindowLayout?, why: String, at: Timestamp)
    /// Where the windows are, as a caller on the bus reports it (the KWin script, the
    /// GNOME Shell extension, a session's agent): on the system bus taken only from one
    /// who acts for the session in front, as `reportedApp` is.
    indirect case reportedWindows(WindowLayout?, by: BusPeer, why: String, at: Timestamp)
    /// The screens and whether each is lit, as the kernel's DRM connectors say: read when
    /// a touch begins, before its events.
    indirect case screens(Screens, why: String, at: Timestamp)
    /// The display turned (the accelerometer).
    indirect case displayRotated(QuarterTurn, why: String, at: Timestamp)
    /// monitor: what the running service says of itself.
    indirect case followed(ServiceState, at: Timestamp)
    /// The machine goes to sleep (true) or woke (logind's PrepareForSleep): before it
    /// sleeps, nothing is left held or under way across the sleep.
    indirect case sleeping(Bool, why: String, at: Timestamp)
    /// A 2-in-1 folded into a tablet (true) or a laptop again: the kernel's SW_TABLET_MODE
    /// (see `when_tablet`).
    indirect case tabletMode(Bool, why: String, at: Timestamp)
    /// A process of the user in front asks to watch the gestures being decided, with its
    /// user's actions held back (`dry`), or no more (see `Inspector`).
    indirect case inspect(InspectRequest, by: BusPeer, at: Timestamp)

    /// Each input's kind: what a timeline's words give (`Timeline.Word.gives`).
    public enum Kind: CaseIterable, Sendable {
        case event, deadline, appeared, isolationFailed, calibrated, gone, ended, stopping, reload, request, locked, logindSilent,
             sessionInFront, appInFront, reportedApp, activeSession, push, peerLeft, windows, reportedWindows, screens,
             displayRotated, followed, sleeping, tabletMode, inspect

        /// A replay's recordings give these (a panel's events, its appearing at the
        /// start, its end) and its clock the deadlines: no timeline line says them.
        public static let notWritten: Set<Kind> = [.event, .deadline, .appeared, .ended]
    }

    public var kind: Kind {
        switch self {
        case .event: .event
        case .deadline: .deadline
        case .appeared: .appeared
        case .isolationFailed: .isolationFailed
        case .calibrated: .calibrated
        case .gone: .gone
        case .ended: .ended
        case .stopping: .stopping
        case .reload: .reload
        case .request: .request
        case .locked: .locked
        case .logindSilent: .logindSilent
        case .sessionInFront: .sessionInFront
        case .appInFront: .appInFront
        case .reportedApp: .reportedApp
        case .activeSession: .activeSession
        case .push: .push
        case .peerLeft: .peerLeft
        case .windows: .windows
        case .reportedWindows: .reportedWindows
        case .screens: .screens
        case .displayRotated: .displayRotated
        case .followed: .followed
        case .sleeping: .sleeping
        case .tabletMode: .tabletMode
        case .inspect: .inspect
        }
    }

    public var time: Timestamp {
        switch self {
        case .event(_, let event): event.time
        case .deadline(let time): time
        case .appeared(_, let time), .isolationFailed(_, _, let time), .calibrated(_, _, let time), .gone(_, _, let time), .ended(_, let time), .stopping(let time),
             .reload(_, let time), .request(_, _, let time), .locked(_, _, let time), .logindSilent(_, let time), .sessionInFront(_, _, let time),
             .appInFront(_, _, let time), .reportedApp(_, _, _, let time), .activeSession(_, _, let time),
             .push(_, _, let time), .peerLeft(_, let time), .windows(_, _, let time), .reportedWindows(_, _, _, let time),
             .screens(_, _, let time), .displayRotated(_, _, let time),
             .followed(_, let time), .sleeping(_, _, let time), .tabletMode(_, _, let time), .inspect(_, _, let time):
            time
        }
    }
}

/// What the seat knows of a device when it appears.
public struct SeatDevice: Sendable {
    public var node: String
    public var description: DeviceDescription
    /// Live devices only: what the kernel holds already, whether it is a gestured twin or
    /// virtual device, and what pairs a pen with its touchscreen (udev's device group).
    public var live: Live?

    public struct Live: Sendable {
        public var kernelState: KernelTouchState?
        public var isTwin: Bool
        public var group: String?

        public init(kernelState: KernelTouchState?, isTwin: Bool, group: String?) {
            self.kernelState = kernelState
            self.isTwin = isTwin
            self.group = group
        }
    }

    public init(node: String, description: DeviceDescription, live: Live? = nil) {
        self.node = node
        self.description = description
        self.live = live
    }

    /// What pairs a pen with its touchscreen: udev's group for a live device (none pairs
    /// with nothing); the recordings of one replay are one seat's, so they all pair.
    var group: String? { live.map(\.group) ?? "recordings" }
}

/// What monitor hears the running service say of itself; nil for what it did not say.
public struct ServiceState: Sendable, Equatable {
    public var mode: String?
    public var paused: Bool?
    public var locked: Bool?
    public var touchLocked: Bool?
    public var rotation: QuarterTurn?
    /// One panel's rotation (by node), from its own object.
    public var panelRotation: (node: String, turn: QuarterTurn)?

    public init(mode: String? = nil, paused: Bool? = nil, locked: Bool? = nil, touchLocked: Bool? = nil, rotation: QuarterTurn? = nil,
                panelRotation: (node: String, turn: QuarterTurn)? = nil) {
        self.mode = mode
        self.paused = paused
        self.locked = locked
        self.touchLocked = touchLocked
        self.rotation = rotation
        self.panelRotation = panelRotation
    }

    public static func == (a: ServiceState, b: ServiceState) -> Bool {
        a.mode == b.mode && a.paused == b.paused && a.locked == b.locked && a.touchLocked == b.touchLocked && a.rotation == b.rotation
            && a.panelRotation?.node == b.panelRotation?.node && a.panelRotation?.turn == b.panelRotation?.turn
    }
}
