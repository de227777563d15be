import Gestures
import TouchCore

/// A change to what may fire, with why: what the log and `monitor` say.
public struct ControlChange: Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case mode(from: String, to: String)
        /// For how long; nil when the service did not say (monitor follows it).
        case paused(seconds: Double?)
        case resumed
        case locked
        case unlocked
        case touchLocked
        case touchUnlocked
        /// A 2-in-1 in tablet mode (true) or a laptop again (see `when_tablet`).
        case tablet(Bool)
        /// The seat idle (`idle_s` without a touch), or in use again.
        case idle(Bool)
        /// The display turned.
        case rotated(QuarterTurn)
        /// One panel (its name) turned, by its own object on the bus.
        case panelRotated(device: String, QuarterTurn)
        /// Another application in front, or none known; `firing`: which gestures with apps
        /// fire for it and which not (see `GestureGate.appSummary`).
        case app(AppInFront?, firing: String? = nil)
        /// Where the desktop's windows are now, or none says (see `apps_window`).
        case windows(WindowLayout?)
        /// The screens lit or dark now (see `wake_latch`).
        case screens(Screens)
        /// logind says nothing of the lock: what it said stays (`LockKnowledge`), or, never
        /// heard, the session counts as unlocked.
        case logindSilent(locked: Bool, everHeard: Bool)
        /// The session a user's own daemon serves came in front of the seat, or went away
        /// from it (`SeatPresence`).
        case session(inFront: Bool)
        /// The system service: another session in front of seat0 (nil: none), and how many
        /// of its user's gestures are in force with the machine's (nil: none handed over).
        case activeSession(SeatSession?, userGestures: Int?)
        /// The session in front's user's configuration taken: its file, as their agent
        /// names it, and its gestures, all in force (one named as the machine's is refused;
        /// should the machine's file take the name later, `Seat.putInForce` says so).
        case userGestures(user: UInt32, file: String, count: Int)
        /// It was refused (`ControlRefusal`'s words).
        case userGesturesRefused(user: UInt32, why: String)
        /// The agent of the session in front left the bus: its user's commands are skipped.
        case agentLeft(SeatSession)

        /// The control interface's property it changes; nil for a panel's own rotation,
        /// a property of the panel's object.
        public var property: ControlProperty? {
            switch self {
            case .mode: .mode
            case .paused, .resumed: .paused
            case .locked, .unlocked: .locked
            case .touchLocked, .touchUnlocked: .touchLocked
            case .idle: .idle
            case .rotated: .rotation
            case .panelRotated, .windows, .screens, .session, .userGesturesRefused, .logindSilent, .tablet: nil
            case .activeSession, .userGestures, .agentLeft: .session
            case .app: .app
            }
        }

        /// Whether what may fire changed (the gate), rather than how a panel is turned.
        public var changesGate: Bool {
            switch self {
            case .mode, .paused, .resumed, .locked, .unlocked, .touchLocked, .touchUnlocked, .tablet, .app, .windows: true
            case .idle, .rotated, .panelRotated, .screens, .session, .activeSession, .userGestures, .userGesturesRefused, .agentLeft, .logindSilent: false
            }
        }
    }

    public var kind: Kind
    /// Who asked: a gesture's name, "the control interface", "the timeout", logind.
    public var reason: String

    public init(kind: Kind, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String {
        switch kind {
        case .mode(let from, let to): "mode: \(from) → \(to) (\(reason))"
        case .paused(let seconds):
            "paused\(seconds.map { " for \(fixed($0, decimals: 3)) s" } ?? ""): every touch passes through (\(reason))"
        case .resumed: "resumed: gestures fire again (\(reason))"
        case .locked: "session locked: only gestures with when_locked = true fire (\(reason))"
        case .logindSilent(let locked, true):
            "logind says nothing (\(reason)): the session stays \(locked ? "locked" : "unlocked") until it answers again"
        case .logindSilent(_, false):
            "logind says nothing (\(reason)): the session counts as unlocked, and every gesture of the mode fires"
        case .unlocked: "session unlocked: every gesture of the mode fires again (\(reason))"
        case .touchLocked: "touch locked: no touch reaches applications, and only the gestures that unlock fire (\(reason))"
        case .touchUnlocked: "touch unlocked: touches reach applications again from the next touch sequence (\(reason))"
        case .tablet(true): "tablet mode: gestures with when_tablet = false rest (\(reason))"
        case .tablet(false): "laptop mode: gestures with when_tablet = true rest (\(reason))"
        case .idle(true): "idle (\(reason))"
        case .idle(false): "in use again (\(reason))"
        case .rotated(let turn): "display rotation: \(turn) clockwise for panels whose rotation is auto or external (\(reason))"
        case .panelRotated(let device, let turn): "\(device): rotation \(turn) clockwise from its next touch sequence (\(reason))"
        case .app(let app?, let firing): "app in front: \(printable(app.description)) from the next touch sequence\(firing.map { "; \($0)" } ?? "") (\(reason))"
        case .app(nil, let firing): "app in front: not known\(firing.map { "; \($0)" } ?? "") (\(reason))"
        case .windows(let windows?): "windows: \(windows.description) from the next touch sequence (\(reason))"
        case .windows(nil): "windows: not known; gestures for the touched window follow the focused one (\(reason))"
        case .screens(let screens): "screens: \(screens.description) (\(reason))"
        case .session(inFront: false): "session away: another session is in front of the seat; no touchscreen is read until this one is again (\(reason))"
        case .session(inFront: true): "session in front again: the touchscreens are read (\(reason))"
        case .activeSession(let session?, let count?):
            "\(session) in front: its user's \(gestures(count)) in force with the machine's from the next touch sequence (\(reason))"
        case .activeSession(let session?, nil):
            "\(session) in front: the machine's gestures alone until its agent hands over its user's (\(reason))"
        case .activeSession(nil, _): "no session in front: the machine's gestures alone (\(reason))"
        case .userGestures(let user, let file, let count):
            "uid \(user)'s configuration taken (\(printable(file, limit: 128))): \(gestures(count)) in force with the machine's from the next touch sequence (\(reason))"
        case .userGesturesRefused(let user, let why): "uid \(user)'s configuration refused: \(why) (\(reason))"
        case .agentLeft(let session):
            "the agent of \(session) left the bus: its user's commands are skipped until it is back (\(reason))"
        }
    }

    private func gestures(_ count: Int) -> String { count == 1 ? "1 gesture" : "\(count) gestures" }
}
