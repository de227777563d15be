import Bindings
import TouchCore

/// The studio's inspector (see `Inspector`): who may watch, what is sent to it, and what a
/// dry run holds back.
extension Seat {
    /// One inspector at a time, a process of the user in front: a second replaces the
    /// first, and only the one watching ends its watch.
    func inspect(_ request: InspectRequest, by peer: BusPeer, at time: Timestamp) throws(ControlRefusal) {
        guard peer.ofTheUser || sessions.actsForTheActive(peer) else { throw .notTheActiveSession }
        let name = printable(peer.name, limit: 64)
        switch request {
        case .off:
            guard inspector?.name == peer.name else { return }
            endInspection("\(name) stopped watching")
        case .on, .dry:
            let owner: BindingOwner = peer.ofTheUser ? .machine : .session(sessions.active?.id ?? "")
            setInspector(Inspector(name: peer.name, owner: owner, dryRun: request == .dry))
            effects.append(.log(.info, "\(name) watches the gestures being decided\(request == .dry ? ", its user's actions held back" : "")"))
        }
    }

    /// The inspector is gone (it left, another session is in front): nothing more is sent.
    func endInspection(_ why: String) {
        guard inspector != nil else { return }
        setInspector(nil)
        effects.append(.log(.info, "no more watching of the gestures: \(why)"))
    }

    private func setInspector(_ next: Inspector?) {
        inspector = next
        inspection.forgetAll()
        for panel in panels { panel.pipeline.explaining = pipelinesExplain }
    }

    /// The pipelines say why each recognizer changed: for the debug log and shown steps,
    /// and for an inspector.
    var pipelinesExplain: Bool { explaining || inspector != nil }

    /// Whether a panel's step makes an update: the overlay's, on a frame or a gesture; an
    /// inspector's also on a verdict that came with no frame (a tap's wait ending).
    func updates(_ step: Step) -> Bool {
        guard !step.input.abandons else { return false }
        if step.frame != nil || !step.events.isEmpty { return config.daemon.overlay || inspector != nil }
        return inspector != nil && !step.transitions.isEmpty
    }

    /// An update as it goes out: to the session in front's agent for the overlay, and to
    /// the inspector with its detail.
    func send(_ frame: FeedbackFrame) {
        if config.daemon.overlay, let agent = sessions.activeGiven?.agent { effects.append(.feedback(frame, agent: agent)) }
        if let inspector, frame.detail != nil { effects.append(.inspection(frame, to: inspector.name)) }
    }

    /// A dry run holds back what the inspector's user's gestures do, but for what lets go
    /// of what they held before it began.
    func heldBack(_ owned: OwnedAction) -> Bool {
        guard let inspector, inspector.dryRun, owned.owner == inspector.owner else { return false }
        switch owned.action {
        case .hold(let hold) where hold.moment == .release: return false
        case .touchpad(let touchpad) where touchpad.moment == .end: return false
        default: return true
        }
    }
}
