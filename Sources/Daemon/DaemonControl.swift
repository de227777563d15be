import Config
import Effects
import Gestures
import Loop
import Pipeline
import SystemIO
import TouchCore

/// The control interface's calls, as the loop's own: each changes the controller and
/// every pipeline's gate as a gesture's action would, and is said in the log.
extension Daemon: BusControl {
    /// Reload calls waiting for their answer; beyond these, a call is answered at once.
    static let mostReloadCallers = 16

    public var controlProperties: ControlProperties {
        let gate = seat.control.gate
        return ControlProperties(
            mode: gate.mode, modes: seat.control.modes, paused: gate.paused, locked: gate.locked, touchLocked: gate.touchLocked,
            gestures: config.gestures.map { .init(name: $0.name, type: $0.type.rawValue, modes: $0.modes) },
            devices: deviceNodes.compactMap(device),
            rotation: seat.displayRotation.degrees, app: gate.app,
            session: seat.sessionInFront.map {
                .init(id: $0.session.name, uid: $0.session.user, agent: $0.agent, userGestures: $0.gestures, file: $0.file ?? "")
            })
    }

    public var idle: Bool { seat.idleness == .idle }

    /// On the wall clock: as long ago as it was on the seat's.
    public var lastTouch: UInt64 {
        guard let said = seat.lastTouchSaid else { return 0 }
        let age = max(0, now.microseconds &- said.microseconds)
        return UInt64(clamping: realtimeMicroseconds() &- age)
    }

    public var deviceNodes: [String] { seat.panels.map(\.node) }

    public func device(_ node: String) -> ControlProperties.Device? {
        seat.panel(node).map {
            .init(node: node, name: $0.name, isolated: touchscreens.open[node]?.twin != nil, rotation: $0.pipeline.rotation.degrees,
                  // A recording is on no screen.
                  screen: $0.device.live == nil ? "" : touchscreens.screens.read().describe(forOutput: $0.pipeline.ruleOutput))
        }
    }

    public func setMode(_ mode: String) throws(BusControlError) { try request(.setMode(mode)) }
    public func pause(seconds: UInt32) throws(BusControlError) { try request(.pause(seconds: Double(seconds))) }
    public func resume() { try? request(.resume) }
    public func lockTouch(_ locked: Bool) { try? request(.lockTouch(locked)) }
    public func setRotation(_ degrees: UInt32) throws(BusControlError) { try request(.rotate(degrees: degrees)) }
    public func setRotation(_ degrees: UInt32, of node: String) throws(BusControlError) {
        try request(.rotatePanel(node: node, degrees: degrees))
    }

    /// The application in front, from whoever says: the latest report stands until its
    /// reporter says another, or leaves the bus (then none is known). The bus's filter
    /// rations reports (`BusService.admitsRead`); on the system bus the seat takes it only
    /// from one who acts for the session in front (`SeatSessions`). A name too long, or a
    /// caller refused, is said once.
    public func reportApp(_ report: AppReport, sender: String) throws(BusControlError) {
        guard !report.tooLong else {
            throw refusingReports(sender, BusControlError("InvalidArgs", "an app id, a WM_CLASS part or a source is at most \(AppInFront.longestName) bytes"))
        }
        let (source, why, peer) = reporter(report.source, sender, report.caller)
        do { try take(.reportedApp(report.app(source: source), by: peer, why: why, at: now)) } catch {
            throw refusingReports(sender, BusControlError(Self.errorName(error), "\(error)"))
        }
    }

    /// Where the windows are, from whoever says, on the same terms as `reportApp`: the
    /// latest report stands until its reporter says another or leaves the bus.
    public func reportWindows(_ report: WindowsReport, sender: String) throws(BusControlError) {
        guard !report.tooLong else {
            throw refusingReports(sender, BusControlError("InvalidArgs", "a source is at most \(AppInFront.longestName) bytes"))
        }
        let (_, why, peer) = reporter(report.source, sender, report.caller)
        do { try take(.reportedWindows(report.layout, by: peer, why: why, at: now)) } catch {
            throw refusingReports(sender, BusControlError(Self.errorName(error), "\(error)"))
        }
    }

    /// A report's source as shown (printable, short; "the bus" when it names none), the
    /// reason the seat is given, and who reports, as the seat judges it.
    private func reporter(_ source: String, _ sender: String, _ caller: BusCaller?) -> (source: String, why: String, peer: BusPeer) {
        let source = printable(source.isEmpty ? "the bus" : source, limit: 32)
        let peer = bus?.kind == .system ? peer(sender, caller) : BusPeer(onTheSessionBus: sender)
        return (source, "\(source), \(printable(sender, limit: 32))", peer)
    }

    private func refusingReports(_ sender: String, _ error: BusControlError) -> BusControlError {
        if !saidAppRefusal {
            saidAppRefusal = true
            logger.notice("refusing reports of the application in front and the windows from \(printable(sender, limit: 32)): \(error.message); this is said once")
        }
        return error
    }

    /// A user's configuration from their session's agent: the seat takes it or says why
    /// not (each error at its line), in the call's answer and the log.
    public func setUserConfiguration(_ push: UserPush, caller: BusCaller?, sender: String) throws(BusControlError) {
        guard bus?.kind == .system else {
            throw BusControlError("NotSupported", "a user's configuration is handed to the system service; this gestured reads its own file")
        }
        do { try take(.push(push, by: peer(sender, caller), at: now)) } catch {
            throw BusControlError(Self.errorName(error), "\(error)")
        }
    }

    /// Inspect: on the system bus the seat judges the caller; on the session bus it is the user's.
    public func inspect(_ request: InspectRequest, caller: BusCaller?, sender: String) throws(BusControlError) {
        let peer = bus?.kind == .system ? peer(sender, caller) : BusPeer(onTheSessionBus: sender)
        do { try take(.inspect(request, by: peer, at: now)) } catch {
            throw BusControlError(Self.errorName(error), "\(error)")
        }
    }

    /// A caller as the seat judges it; one the bus did not say is nobody's (uid nobody, no session).
    private func peer(_ sender: String, _ caller: BusCaller?) -> BusPeer {
        BusPeer(name: sender, uid: caller?.uid ?? UInt32.max, session: caller.map { $0.session } ?? "unknown")
    }

    public func mayReport(_ caller: BusCaller) -> Bool {
        seat.actsForTheActive(BusPeer(name: "", uid: caller.uid, session: caller.session))
    }

    public func looksAtPush(from caller: BusCaller) -> Bool {
        seat.looksAtPush(from: BusPeer(name: "", uid: caller.uid, session: caller.session), at: now)
    }

    public func peerLeft(_ name: String) {
        try? take(.peerLeft(name: name, at: now))
    }

    /// A call, as the seat takes it; a refusal is the call's error, named for the bus.
    private func request(_ request: ControlRequest) throws(BusControlError) {
        do { try take(.request(request, why: "the control interface", at: now)) } catch {
            throw BusControlError(Self.errorName(error), "\(error)")
        }
    }

    private static func errorName(_ refusal: ControlRefusal) -> String {
        switch refusal {
        case .unknownMode: "UnknownMode"
        case .pauseOutOfRange, .rotationOutOfRange: "OutOfRange"
        case .unknownDevice: "UnknownDevice"
        case .fixedRotation: "FixedRotation"
        case .notTheActiveSession: "AccessDenied"
        case .tooManyPushes: "LimitsExceeded"
        case .configurationTooLarge: "TooLarge"
        case .configurationRefused: "Refused"
        }
    }

    public func reload(_ done: @escaping (BusControlError?) -> Void) {
        guard options.configPath != nil else { return done(BusControlError("NoConfiguration", "gestured runs without a configuration file: nothing to reload")) }
        guard reloads.callers.count < Self.mostReloadCallers else {
            return done(BusControlError("Busy", "\(Self.mostReloadCallers) reloads are waiting already; try again once they are answered"))
        }
        reloads.callers.append(done)
        reload()
    }

    /// The outcome of a reload, to the callers waiting for it (none while another
    /// follows, unless the bus they called on is about to go).
    func answerReloadCallers(_ failure: String?, busGoing: Bool = false) {
        guard !reloads.again || busGoing else { return }
        let callers = reloads.callers
        reloads.callers = []
        for done in callers { done(failure.map { BusControlError("Rejected", $0) }) }
    }
}

extension Daemon {
    /// How many changes of mode, pause, lock and rotation are said: a member of
    /// gestured-control calling in a loop, or a service monitor follows that flips its
    /// mode, cannot fill the log; what is left out is counted, said once a minute.
    public static func controlLineAllowance(now: Int64) -> Allowance {
        Allowance(burst: 20, perSecond: 2, reportEvery: 60_000_000, now: now)
    }
}
