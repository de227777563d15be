import Bindings
import Config
import Gestures
import TouchCore

/// The daemon-wide state of what may fire (`GestureGate`) as gestures, the control
/// interface, logind and time change it: the mode and its timeout back to the start
/// mode, the pause and its end, the lock, the touch lock. Pure: time is passed in (the daemon's monotonic
/// clock, a replay's recorded one) and `nextDeadline` says when to call `advance`. Every
/// pipeline is given the gate after each change, and takes it at its next touch sequence.
public struct ModeController: Sendable {
    public private(set) var gate: GestureGate
    /// Every mode the configuration knows: what SetMode accepts.
    public private(set) var modes: [String]
    private var startMode: String
    private var defaultTimeoutSeconds: Double?
    /// How long the mode lasts without a gesture, and when that runs out.
    private var modeTimeout: (seconds: Double, expires: Timestamp)?
    public private(set) var pausedUntil: Timestamp?

    public init(_ config: Configuration) {
        startMode = config.daemon.mode
        modes = config.modes
        defaultTimeoutSeconds = config.daemon.modeTimeoutSeconds
        gate = GestureGate(mode: startMode)
    }

    /// A reload: the new modes and start mode; a mode it no longer knows returns to the
    /// start mode.
    public mutating func reconfigure(_ config: Configuration, at time: Timestamp) -> ControlChange? {
        startMode = config.daemon.mode
        modes = config.modes
        defaultTimeoutSeconds = config.daemon.modeTimeoutSeconds
        guard !modes.contains(gate.mode) else { return nil }
        return switchMode(to: startMode, timeoutSeconds: nil, at: time, why: "the reloaded configuration has no mode \"\(gate.mode)\"")
    }

    /// What a gesture's `.mode`, `.pause` or `.touchLock` action does; nil for other
    /// actions, for a switch to the mode already in force (its timeout starts again) and
    /// for a touch lock already so.
    public mutating func perform(_ action: Action, at time: Timestamp) -> ControlChange? {
        switch action {
        case .mode(let binding, let change):
            guard modes.contains(change.mode) else { return nil }  // the configuration's own modes: always known
            return switchMode(to: change.mode, timeoutSeconds: change.timeoutSeconds, at: time, why: binding)
        case .pause(let binding, let seconds):
            return pause(seconds: seconds, at: time, why: binding)
        case .touchLock(let binding, let change):
            return setTouchLocked(change.applied(to: gate.touchLocked), why: binding)
        case .run, .signal, .keys, .click, .scroll, .fling, .hold, .touchpad:
            return nil
        }
    }

    /// SetMode: nil when already in that mode.
    public mutating func setMode(_ mode: String, at time: Timestamp, why: String) throws(ControlRefusal) -> ControlChange? {
        guard modes.contains(mode) else { throw .unknownMode(mode, known: modes) }
        return switchMode(to: mode, timeoutSeconds: nil, at: time, why: why)
    }

    /// Pause(seconds) from the control interface: from 1 s to a day.
    public mutating func pause(checking seconds: Double, at time: Timestamp, why: String) throws(ControlRefusal) -> ControlChange {
        guard seconds >= 1, seconds <= Configuration.longestControlSeconds else { throw .pauseOutOfRange(seconds) }
        return pause(seconds: seconds, at: time, why: why)
    }

    /// Nil when not paused.
    public mutating func resume(why: String) -> ControlChange? {
        guard gate.paused else { return nil }
        gate.paused = false
        pausedUntil = nil
        return ControlChange(kind: .resumed, reason: why)
    }

    /// Tablet mode on or off (SW_TABLET_MODE); nil when it was already so.
    public mutating func setTablet(_ tablet: Bool, why: String) -> ControlChange? {
        guard gate.tablet != tablet else { return nil }
        gate.tablet = tablet
        return ControlChange(kind: .tablet(tablet), reason: why)
    }

    /// Nil when it was already so.
    public mutating func setLocked(_ locked: Bool, why: String) -> ControlChange? {
        guard gate.locked != locked else { return nil }
        gate.locked = locked
        return ControlChange(kind: locked ? .locked : .unlocked, reason: why)
    }

    /// The touch lock on or off; nil when it was already so.
    public mutating func setTouchLocked(_ locked: Bool, why: String) -> ControlChange? {
        guard gate.touchLocked != locked else { return nil }
        gate.touchLocked = locked
        return ControlChange(kind: locked ? .touchLocked : .touchUnlocked, reason: why)
    }

    /// Nil when it was already in front (or still not known).
    public mutating func setApp(_ app: AppInFront?, why: String) -> ControlChange? {
        guard gate.app != app else { return nil }
        gate.app = app
        return ControlChange(kind: .app(app), reason: why)
    }

    /// Where the desktop's windows are (nil: no desktop says); nil when it was already so.
    public mutating func setWindows(_ windows: WindowLayout?, why: String) -> ControlChange? {
        guard gate.windows != windows else { return nil }
        gate.windows = windows
        return ControlChange(kind: .windows(windows), reason: why)
    }

    /// What the running service says of itself (`monitor` follows it): its mode, pause,
    /// lock and touch lock as they are, with no timeout of ours, as the service says when
    /// they end.
    public mutating func follow(mode: String?, paused: Bool?, locked: Bool?, touchLocked: Bool? = nil, why: String) -> [ControlChange] {
        var changes: [ControlChange] = []
        if let mode, mode != gate.mode {
            changes.append(ControlChange(kind: .mode(from: gate.mode, to: mode), reason: why))
            gate.mode = mode
            modeTimeout = nil
        }
        if let paused, paused != gate.paused {
            gate.paused = paused
            pausedUntil = nil
            changes.append(ControlChange(kind: paused ? .paused(seconds: nil) : .resumed, reason: why))
        }
        if let locked, let change = setLocked(locked, why: why) { changes.append(change) }
        if let touchLocked, let change = setTouchLocked(touchLocked, why: why) { changes.append(change) }
        return changes
    }

    /// A gesture event: the mode's timeout starts again.
    public mutating func gestureFired(at time: Timestamp) {
        if let seconds = modeTimeout?.seconds { modeTimeout = (seconds, time + seconds * 1000) }
    }

    /// The pause's end and the mode's timeout, when due by `time`.
    public mutating func advance(to time: Timestamp) -> [ControlChange] {
        var changes: [ControlChange] = []
        if let until = pausedUntil, until <= time, let change = resume(why: "the pause ran out") { changes.append(change) }
        if let expires = modeTimeout?.expires, expires <= time {
            let seconds = modeTimeout!.seconds
            if let change = switchMode(to: startMode, timeoutSeconds: nil, at: time, why: "\(fixed(seconds, decimals: 3)) s without a gesture") {
                changes.append(change)
            }
        }
        return changes
    }

    /// When `advance` has something to do.
    public var nextDeadline: Timestamp? { Timestamp.earlier(pausedUntil, modeTimeout?.expires) }

    private mutating func switchMode(to mode: String, timeoutSeconds: Double?, at time: Timestamp, why: String) -> ControlChange? {
        let seconds = mode == startMode ? nil : timeoutSeconds ?? defaultTimeoutSeconds
        modeTimeout = seconds.map { ($0, time + $0 * 1000) }
        guard gate.mode != mode else { return nil }
        let from = gate.mode
        gate.mode = mode
        return ControlChange(kind: .mode(from: from, to: mode), reason: why)
    }

    private mutating func pause(seconds: Double, at time: Timestamp, why: String) -> ControlChange {
        gate.paused = true
        pausedUntil = time + seconds * 1000
        return ControlChange(kind: .paused(seconds: seconds), reason: why)
    }
}
