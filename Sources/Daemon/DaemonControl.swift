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
        let gate = seat.control.gate
        return ControlProperties(
            mode: gate.mode, modes: seat.control.modes, paused: gate.paused, locked: gate.locked,
            gestures: config.gestures.map { .init(name: $0.name, type: $0.type.rawValue, modes: $0.modes) },
            devices: deviceNodes.compactMap(device),
            rotation: seat.displayRotation.degrees, app: gate.app)
    }

    public var deviceNodes: [String] { seat.panels.map(\.node) }

    public func device(_ node: String) -> ControlProperties.Device? {
        seat.panel(node).map {
            .init(node: node, name: $0.name, isolated: panels[node]?.twin != nil, rotation: $0.pipeline.rotation.degrees,
                  // A recording is on no screen.
                  screen: $0.device.live == nil ? "" : screenSensor.read().describe(forOutput: $0.pipeline.ruleOutput))
        }
    }

    public func setMode(_ mode: String) throws(BusControlError) { try request(.setMode(mode)) }
    public func pause(seconds: UInt32) throws(BusControlError) { try request(.pause(seconds: Double(seconds))) }
    public func resume() { try? request(.resume) }
    public func setRotation(_ degrees: UInt32) throws(BusControlError) { try request(.rotate(degrees: degrees)) }
    public func setRotation(_ degrees: UInt32, of node: String) throws(BusControlError) {
        try request(.rotatePanel(node: node, degrees: degrees))
    }

    /// The application in front, from whoever says: the latest report stands until its
    /// reporter says another, or leaves the bus (then none is known). The bus's filter
    /// rations reports (`BusService.admitsRead`); a name too long, or a caller who is not
    /// the user in front of the seat, is refused, said once.
    public func reportApp(_ report: AppReport, sender: String) throws(BusControlError) {
        func refuse(_ name: String, _ why: String) -> BusControlError {
            if !saidAppRefusal {
                saidAppRefusal = true
                logger.notice("refusing reports of the application in front from \(printable(sender, limit: 32)): \(why); this is said once")
            }
            return BusControlError(name, why)
        }
        // On the system bus, only the user and session in front of the seat say what is in front.
        if bus?.kind == .system, !(report.caller.map(mayReport) ?? false) {
            throw refuse("AccessDenied", "only the user of seat0's active session, from that session or their own services, reports the application in front")
        }
        guard !report.tooLong else {
            throw refuse("InvalidArgs", "an app id, a WM_CLASS part or a source is at most \(AppInFront.longestName) bytes")
        }
        let source = printable(report.source.isEmpty ? "the bus" : report.source, limit: 32)
        appReporter = (sender, source, report.caller)
        try? take(.appInFront(report.app(source: source), why: "\(source), \(printable(sender, limit: 32))", at: self.now))
    }

    /// The user of seat0's active session, from a process of that session or of none
    /// (the user's own services: the session agent, a desktop run by the user's
    /// manager); a process of another session of that user is not in front.
    public func mayReport(_ caller: BusCaller) -> Bool {
        guard let sessionUser, caller.uid == sessionUser else { return false }
        return caller.session == nil || caller.session == activeSession
    }

    /// Another session in front of the seat (logind): what a reporter of another user
    /// or session said no longer stands, and every reporter is asked to say it again
    /// (the new session's agent has not said it to us, or not since it was last in front).
    func sessionChanged(user uid: UInt32?, session: String?) {
        sessionUser = uid
        activeSession = session
        guard bus?.kind == .system else { return }
        bus?.wantApp()
        guard let reporter = appReporter, !(reporter.caller.map(mayReport) ?? false) else { return }
        appReporter = nil
        try? take(.appInFront(nil, why: "another session is in front", at: now))
    }

    public func peerLeft(_ name: String) {
        guard let reporter = appReporter, reporter.name == name else { return }
        appReporter = nil
        try? take(.appInFront(nil, why: "\(reporter.source) left the bus", at: now))
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
        }
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
