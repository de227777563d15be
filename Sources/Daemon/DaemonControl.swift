import Config
import Effects
import Gestures
import Pipeline
import SystemIO
import TouchCore

/// The control interface's calls, as the loop's own: each changes the controller and
/// every pipeline's gate as a gesture's action would, and is said in the log.
extension Daemon: BusControl {
    /// Reload calls waiting for their answer; beyond these, a call is answered at once.
    static let mostReloadCallers = 16

    public var controlProperties: ControlProperties {
        ControlProperties(
            mode: control.gate.mode, modes: control.modes, paused: control.gate.paused, locked: control.gate.locked,
            gestures: config.gestures.map { .init(name: $0.name, type: $0.type.rawValue, modes: $0.modes) },
            devices: deviceNodes.compactMap(device),
            rotation: displayRotation.degrees)
    }

    public var deviceNodes: [String] { touchscreens.keys.sorted() }

    public func device(_ node: String) -> ControlProperties.Device? {
        touchscreens[node].map { .init(node: node, name: $0.name, isolated: $0.twin != nil, rotation: $0.pipeline.rotation.degrees) }
    }

    public func setMode(_ mode: String) throws(BusControlError) {
        do {
            controlChanged(try control.setMode(mode, at: now, why: "the control interface").map { [$0] } ?? [])
        } catch {
            throw BusControlError("UnknownMode", "\(error)")
        }
    }

    public func pause(seconds: UInt32) throws(BusControlError) {
        do {
            controlChanged([try control.pause(checking: Double(seconds), at: now, why: "the control interface")])
        } catch {
            throw BusControlError("OutOfRange", "\(error)")
        }
    }

    public func resume() {
        controlChanged(control.resume(why: "the control interface").map { [$0] } ?? [])
    }

    public func setRotation(_ degrees: UInt32) throws(BusControlError) {
        guard let turn = QuarterTurn(degrees: degrees) else {
            throw BusControlError("OutOfRange", "a rotation of \(degrees)°; expected 0, 90, 180 or 270 (clockwise)")
        }
        displayRotated(turn, why: "the control interface")
    }

    public func setRotation(_ degrees: UInt32, of node: String) throws(BusControlError) {
        guard let screen = touchscreens[node] else { throw BusControlError("UnknownDevice", "no touchscreen \(node)") }
        guard let turn = QuarterTurn(degrees: degrees) else {
            throw BusControlError("OutOfRange", "a rotation of \(degrees)°; expected 0, 90, 180 or 270 (clockwise)")
        }
        guard screen.pipeline.rotationSetting.followsDisplay else {
            throw BusControlError("FixedRotation", "\(screen.name) is mounted at \(screen.pipeline.rotation) by the configuration; "
                                  + "give its [[device]] rule rotation = \"external\" to set it on the bus")
        }
        panelRotated(screen, turn, why: "the control interface")
    }

    public func reload(_ done: @escaping (BusControlError?) -> Void) {
        guard options.configPath != nil else { return done(BusControlError("NoConfiguration", "gestured runs without a configuration file: nothing to reload")) }
        guard reloadCallers.count < Self.mostReloadCallers else {
            return done(BusControlError("Busy", "\(Self.mostReloadCallers) reloads are waiting already; try again once they are answered"))
        }
        reloadCallers.append(done)
        reload()
    }

    /// The outcome of a reload, to the callers waiting for it (none while another
    /// follows, unless the bus they called on is about to go).
    func answerReloadCallers(_ failure: String?, busGoing: Bool = false) {
        guard !reloadAgain || busGoing else { return }
        let callers = reloadCallers
        reloadCallers = []
        for done in callers { done(failure.map { BusControlError("Rejected", $0) }) }
    }
}

extension Daemon {
    /// The controller's clock: the monotonic one, or the recording's (played at its speed).
    var now: Timestamp {
        let monotonic = monotonicMicroseconds()
        return replayScreen?.deviceTime(monotonic) ?? Timestamp(microseconds: monotonic)
    }

    /// When the pause or the mode runs out, on the monotonic clock.
    var controlDeadline: Int64? {
        control.nextDeadline.map { replayScreen?.monotonic($0) ?? $0.microseconds }
    }

    /// Says what changed and gives every touchscreen the new gate, once the step that
    /// made it (if any) is performed.
    func controlChanged(_ changes: [ControlChange], by step: (screen: Touchscreen, time: Timestamp)? = nil) {
        guard !changes.isEmpty else { return }
        let monotonic = monotonicMicroseconds()
        for change in changes where controlLines.take(now: monotonic) {
            logger.info("\(change)")
            options.showControl?(change)
        }
        if changes.contains(where: \.kind.changesGate) {
            // The touchscreen whose step made the change takes it right after that step;
            // the others once the step is performed.
            if let step { step.screen.pipeline.give(control.gate, at: step.time) }
            gateChanged = step.map { $0.screen.monotonic($0.time) } ?? monotonic
            if !feeding { spreadGate() }
        }
        bus?.announce(changes.compactMap(\.kind.property))
    }
}

extension Daemon {
    /// How many changes of mode, pause, lock and rotation are said: a member of
    /// gestured-control calling in a loop, or a service monitor follows that flips its
    /// mode, cannot fill the log; what is left out is counted, said once a minute.
    static func controlLineAllowance(now: Int64) -> Allowance {
        Allowance(burst: 20, perSecond: 2, reportEvery: 60_000_000, now: now)
    }

    func reportUnsaidControlLines(now: Int64) {
        guard let unsaid = controlLines.dueReport(now: now) else { return }
        logger.notice("\(unsaid) more changes of mode, pause, lock or rotation were not logged (20 at once, then 2 a second)")
    }
}

extension ModeController.Refusal: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unknownMode(let mode, let known):
            "no mode \"\(mode)\"; the configuration's modes are \(known.map { "\"\($0)\"" }.joined(separator: ", "))"
        case .pauseOutOfRange(let seconds):
            "a pause of \(fixed(seconds, decimals: 0)) s; expected from 1 to \(fixed(Configuration.longestControlSeconds, decimals: 0)) seconds"
        }
    }
}
