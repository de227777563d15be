import TouchCore

/// A panel's wake latch (`wake_latch`): a touch sequence that begins while the panel's
/// screen is dark only wakes it, fires nothing and reaches no twin; so does one that
/// begins within `wake_guard_ms` after such a sequence lifted, while the screen lights.
/// A guard is started only by a sequence begun on a dark screen, never renewed by one
/// begun within it (touches every few seconds would otherwise never act on a lit
/// screen). A screen still read dark `givesUpMS` after a touch first woke it is taken
/// for lit: the wake did not work, or the kernel's record is wrong (a backlight stuck at
/// off), and a latch that held on would leave the panel dead.
public struct WakeLatch: Equatable {
    enum State: Equatable {
        /// Touches act.
        case idle
        /// A waking sequence is under way: `beganDark` on a dark screen (its lift starts
        /// the guard), else within the guard (`guardUntil`, which it keeps).
        case waking(beganDark: Bool, guardUntil: Timestamp?)
        /// A sequence that begins before `until` wakes too.
        case guarding(until: Timestamp)
    }

    /// What a sequence beginning is.
    enum Start: Equatable {
        case acts
        /// It wakes the screen (the words say why).
        case wakes(String)
        /// It began on a screen that stayed dark too long after a touch woke it: it acts.
        case stillDark(String)
    }

    public static let givesUpMS = 5000.0

    private(set) var state = State.idle
    /// When a sequence first woke the screen, while it has not read lit since.
    private var wokeAt: Timestamp?

    var isWaking: Bool {
        if case .waking = state { return true }
        return false
    }

    /// Whether a sequence beginning now may be a waking one.
    func mayWake(screenDark: Bool) -> Bool {
        if screenDark { return true }
        if case .idle = state { return false }
        return true
    }

    /// A sequence begins at `time` on a screen dark or lit (`screenName`: the screen's, for the words).
    mutating func begin(at time: Timestamp, screenDark: Bool, screenName: String?) -> Start {
        // Checked first: a guard renewed by taps on a screen that never lights would hold on too.
        if screenDark, let woke = wokeAt, time >= woke + Self.givesUpMS {
            state = .idle
            return .stillDark("\(screenName ?? "every screen") still reads dark \(fixed(Self.givesUpMS / 1000, decimals: 0)) s after a touch woke it: "
                + "touches act until it reads lit (set wake_command, or wake_latch = false if the kernel's record is wrong)")
        }
        var guardUntil: Timestamp?
        if case .guarding(let until) = state, time < until { guardUntil = until }
        guard screenDark || guardUntil != nil else {
            state = .idle
            return .acts
        }
        if screenDark, wokeAt == nil { wokeAt = time }
        state = .waking(beganDark: screenDark, guardUntil: guardUntil)
        return .wakes(screenDark
            ? "\(screenName.map { "its screen (\($0)) is" } ?? "every screen is") dark: this touch wakes it and fires nothing"
            : "a touch within wake_guard_ms of the one that woke the screen: it fires nothing")
    }

    /// The waking sequence's last finger lifted at `time`.
    mutating func lifted(at time: Timestamp, guardMS: Double) {
        guard case .waking(let beganDark, let guardUntil) = state else { return }
        if beganDark {
            state = .guarding(until: time + guardMS)
        } else if let guardUntil {
            state = .guarding(until: guardUntil)
        } else {
            state = .idle
        }
    }

    /// The screen reads lit (or dark) now: lit, the give-up timer starts afresh.
    mutating func screen(dark: Bool) {
        if !dark { wokeAt = nil }
    }
}
