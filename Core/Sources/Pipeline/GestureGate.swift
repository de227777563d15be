import Gestures
import TouchCore

/// Which of the configured gestures may fire: under the touch lock only those that unlock
/// it (in any mode, paused or not, the session locked or not: whoever holds the panel can
/// always end it); otherwise those of the mode, none while paused, while
/// the session is locked only those marked `when_locked`, those `when_tablet` keeps to
/// the other posture left out, and those for the application
/// in front, an application's own gesture in place of the one for every application of
/// the same trigger (or, for gestures with `apps_window = "touched"`, for the application
/// of the window under the first touch, where the desktop says where its windows are). A
/// touchscreen's pipeline runs only those recognizers, so an isolated panel's twin gets
/// every touch the others would have taken.
public struct GestureGate: Equatable, Sendable {
    public var mode: String
    public var paused = false
    public var locked = false
    /// The touch lock: no touch reaches an isolated panel's twin, and only the gestures
    /// that unlock it fire.
    public var touchLocked = false
    /// A 2-in-1 in tablet mode (SW_TABLET_MODE): gestures with `when_tablet = false` rest.
    public var tablet = false
    /// Nil when no desktop says (none watched, or the one that said went away).
    public var app: AppInFront?
    /// Where the desktop's windows are; nil when no desktop says.
    public var windows: WindowLayout?

    public init(mode: String, paused: Bool = false, locked: Bool = false, touchLocked: Bool = false, tablet: Bool = false,
                app: AppInFront? = nil, windows: WindowLayout? = nil) {
        self.mode = mode
        self.paused = paused
        self.locked = locked
        self.touchLocked = touchLocked
        self.tablet = tablet
        self.app = app
        self.windows = windows
    }

    /// The gestures of `gestures` that may fire, in their order, with `touched` the
    /// application under the sequence's first touch. One for an application (`apps`) that
    /// may fire leaves out every other of its trigger that is not.
    public func admitted(_ gestures: [GestureSpec], touched: AppInFront? = nil) -> [GestureSpec] {
        let open = gestures.filter { exclusion(of: $0) == nil && $0.apps.admits(app(for: $0, touched: touched)) }
        let specific = Set(open.lazy.filter(\.apps.isSpecific).map(\.trigger))
        guard !specific.isEmpty else { return open }
        return open.filter { $0.apps.isSpecific || !specific.contains($0.trigger) }
    }

    /// The application `gesture`'s `apps` are matched against: the focused window's, or
    /// the touched one's where the desktop says where its windows are.
    func app(for gesture: GestureSpec, touched: AppInFront?) -> AppInFront? {
        decidedByTouch(gesture) ? touched : app
    }

    /// Whether the first touch decides for `gesture`: it is for the window under it, and
    /// the desktop says where its windows are.
    func decidedByTouch(_ gesture: GestureSpec) -> Bool {
        gesture.apps.underTouch && windows != nil
    }

    /// For the log and replay: which of the gestures the mode, the pause and the lock admit fire for
    /// the application in front and which not because of it (at most `listed` named of
    /// each); nil when none of them names applications. At a sequence's start, `touched`
    /// is the application under its first touch; otherwise the gestures it decides are
    /// left out.
    public func appSummary(_ gestures: [GestureSpec], touched: AppInFront?? = nil, listed: Int = 8) -> String? {
        let open = gestures.filter { exclusion(of: $0) == nil && (touched != nil || !decidedByTouch($0)) }
        guard open.contains(where: { !$0.apps.isEverywhere }) else { return nil }
        let firing = Set(admitted(open, touched: touched ?? nil).map(\.name))
        func names(_ list: [GestureSpec]) -> String {
            let shown = list.prefix(listed).map(\.name).joined(separator: ", ")
            return list.count > listed ? "\(shown) and \(list.count - listed) more" : shown
        }
        let forIt = open.filter { !$0.apps.isEverywhere && firing.contains($0.name) }
        let notForIt = open.filter { !firing.contains($0.name) }
        var parts: [String] = []
        if !forIt.isEmpty { parts.append("for it: \(names(forIt))") }
        if !notForIt.isEmpty { parts.append("not for it: \(names(notForIt))") }
        return parts.joined(separator: "; ")
    }

    /// Why the touch lock, the mode, the pause, the lock or the posture keep `gesture` from firing; nil
    /// when they do not. The application in front is not among them: it decides at a
    /// sequence's start, and one that comes to the front during a sequence leaves it as it is.
    public func exclusion(of gesture: GestureSpec) -> String? {
        if touchLocked { return gesture.unlocksTouch ? nil : "the touch lock is on" }
        if paused { return "gestured is paused" }
        if locked, !gesture.whenLocked { return "the session is locked" }
        if let whenTablet = gesture.whenTablet, whenTablet != tablet { return tablet ? "in tablet mode" : "not in tablet mode" }
        if !gesture.fires(inMode: mode) { return "not in mode \"\(mode)\"" }
        return nil
    }

    /// Whether the gesture named `name` (one of `gestures`) fires only because it may end
    /// the touch lock: the session's lock, the pause or the mode keep it out otherwise.
    /// Then it ends the touch lock and does nothing else.
    public func admitsOnlyToEndTouchLock(_ name: String, among gestures: some Sequence<GestureSpec>) -> Bool {
        guard touchLocked, let gesture = gestures.first(where: { $0.name == name }), gesture.unlocksTouch else { return false }
        var withoutTouchLock = self
        withoutTouchLock.touchLocked = false
        return withoutTouchLock.exclusion(of: gesture) != nil
    }

    /// The same gate, the application and the windows aside: what a sequence under way answers to.
    func sameApart(fromApp other: GestureGate) -> Bool {
        mode == other.mode && paused == other.paused && locked == other.locked && touchLocked == other.touchLocked
            && tablet == other.tablet
    }
}
