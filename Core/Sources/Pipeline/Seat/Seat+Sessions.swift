import Bindings
import Config
import ConfigDocument
import Gestures
import TouchCore

/// The system service's sessions: whose gestures are in force (the machine's, and those
/// of the session in front's user), who may hand them over or say the application in
/// front, and where that user's commands go (their session's agent). A change of session
/// is a gate: touches under way are cancelled (a held or stepped output ends with its
/// gesture) and the new user's gestures take the next touch sequence. The touch lock is
/// the person's at the screen: another user's session in front ends it, as their
/// gestures may not unlock it.
extension Seat {
    /// Whether a caller acts for the session in front (its reports, its pushes).
    public func actsForTheActive(_ peer: BusPeer) -> Bool { sessions.actsForTheActive(peer) }

    /// Whether a hand-over from this caller would be looked at now (it acts for the
    /// session in front, within `PushPace`): the edge reads a call's arguments only then,
    /// and otherwise hands over `UserPush.unread`, refused as it would be.
    public func looksAtPush(from peer: BusPeer, at time: Timestamp) -> Bool {
        sessions.actsForTheActive(peer) && sessions.wouldAdmitPush(at: time)
    }

    /// The session in front, its user's configuration's file and gestures in force (nil:
    /// none handed over), and whether its agent is on the bus: what `status` says.
    public var sessionInFront: (session: SeatSession, file: String?, gestures: Int, agent: Bool)? {
        guard let active = sessions.active else { return nil }
        let given = sessions.activeGiven
        let theirs = config.bindings.count { $0.owner == .session(active.id) }
        return (active, given?.config == nil ? nil : given?.file, theirs, given?.agent != nil)
    }

    func setApp(_ app: AppInFront?, why: String, at time: Timestamp) {
        guard var change = control.setApp(app, why: why) else { return }
        change.kind = .app(app, firing: control.gate.appSummary(config.gestures))
        changed([change], at: time)
    }

    /// Where the windows are (nil: not known), said when it changed.
    func setWindows(_ windows: WindowLayout?, why: String, at time: Timestamp) {
        changed(control.setWindows(windows, why: why).map { [$0] } ?? [], at: time)
    }

    /// The new session is in front first, then every panel with anything pending
    /// (fingers down, a tap waiting to rule out a double tap) abandons its sequence: what
    /// the leaving user's gestures hold (keys, a pan's wheel, touchpad fingers) is let go,
    /// nothing else of theirs is performed, and nothing waiting for them (overlay updates,
    /// a second click) reaches the next session.
    func switchSession(to session: SeatSession?, why: String, at time: Timestamp) {
        let before = sessions.active?.user
        sessions.setActive(session, at: time)
        abandonPending("another session is in front", at: time)
        endInspection("another session is in front")
        if let second = secondClick, !sessions.inFront(second.owner) { secondClick = nil }
        if let before, let after = session?.user, before != after {
            changed(control.setTouchLocked(false, why: "another user's session is in front").map { [$0] } ?? [], at: time)
        }
        // What the leaving session's reporter said is not the new one's application, nor its windows.
        if let reporter = appReporter, !reporter.ofTheUser, !sessions.actsForTheActive(reporter) {
            appReporter = nil
            setApp(nil, why: "another session is in front", at: time)
        }
        if let reporter = windowsReporter, !reporter.ofTheUser, !sessions.actsForTheActive(reporter) {
            windowsReporter = nil
            setWindows(nil, why: "another session is in front", at: time)
        }
        let given = sessions.activeGiven?.config
        changed([ControlChange(kind: .activeSession(sessions.active, userGestures: given.map { $0.gestures.count }), reason: why)], at: time)
        putInForce(at: time)
        effects.append(.wantAgents)
    }

    /// Every panel with fingers down or a gesture waiting ends its sequence now: nothing
    /// of it fires later, for whichever owner is in front by then, and no overlay update
    /// waiting for it goes out.
    func abandonPending(_ why: String, at time: Timestamp) {
        for panel in panels where panel.pipeline.fingersDown || panel.pipeline.nextDeadline != nil {
            feed(.abandon(why: why, at: time), to: panel)
        }
        feedback.forgetAll()
        inspection.forgetAll()
        _ = progress.forget(nil)  // the leaving owner's: the next one's agent is not told
    }

    /// The machine's configuration with the session in front's user's gestures.
    func putInForce(at time: Timestamp) {
        var next = machine
        if let active = sessions.active, let user = sessions.activeGiven?.config {
            let (merged, leftOut) = machine.merging(user, owner: .session(active.id))
            next = merged
            if !leftOut.isEmpty {
                effects.append(.log(.warning, "the session in front's gestures named as the machine's are left out: \(leftOut.map { printable($0, limit: 64) }.joined(separator: ", "))"))
            }
        }
        reload(next, at: time)
    }

    /// A user's configuration from a caller: refused unless the caller acts for the session
    /// in front, faster than `PushPace`, larger than a user's may be, or with errors (each
    /// at its line); else in force from each panel's next touch sequence.
    func take(_ push: UserPush, by peer: BusPeer, at time: Timestamp) throws(ControlRefusal) {
        func refuse(_ refusal: ControlRefusal) -> ControlRefusal {
            changed([ControlChange(kind: .userGesturesRefused(user: peer.uid, why: refusal.description), reason: printable(peer.name, limit: 64))],
                    at: time)
            return refusal
        }
        guard sessions.actsForTheActive(peer) else { throw refuse(.notTheActiveSession) }
        guard !push.isUnread, sessions.admitPush(at: time) else { throw refuse(.tooManyPushes) }
        if let (part, bytes) = push.oversize {
            throw refuse(.configurationTooLarge(what: part.rawValue, bytes: bytes, most: part.most))
        }
        let file = printable(push.file, limit: 256)
        guard let outcome = ParseOutcome(decoding: push.document) else {
            throw refuse(.configurationRefused("\(file): not a parsed configuration; is the agent of another version than gestured? Restart it"))
        }
        let user: Configuration
        do {
            user = try Configuration.check(outcome, text: push.text, file: file, keyCodes: self.keyCodes(), scope: .user,
                                           machineGestures: Set(machine.gestures.map(\.name)))
        } catch {
            throw refuse(.configurationRefused("\(error)"))
        }
        // What is under way was decided by the file it replaces, unless it is the same
        // (an agent says it again whenever a session comes in front, or it restarts).
        let replaces = sessions.activeGiven?.config != user
        sessions.take(user, file: file, from: peer.name, at: time)
        if replaces { abandonPending("its user handed over another configuration", at: time) }
        // A gesture named as one of the machine's was refused by the check: all of them are in force.
        changed([ControlChange(kind: .userGestures(user: peer.uid, file: file, count: user.gestures.count), reason: printable(peer.name, limit: 64))],
                at: time)
        putInForce(at: time)
    }

    /// A command or signal of the session in front's user's gesture, to their agent; with
    /// none, it is skipped, said once until an agent is back.
    func toAgent(_ kind: AgentAction.Kind, _ binding: String, _ environment: [String]) {
        guard let agent = sessions.activeGiven?.agent else {
            if sessions.sayNoAgent() {
                effects.append(.log(.warning, "\(binding): skipped: no agent in the session in front runs its user's commands and signals (said once until one is back)"))
            }
            return
        }
        effects.append(.toAgent(AgentAction(agent: agent, binding: binding, kind: kind, environment: environment)))
    }
}
