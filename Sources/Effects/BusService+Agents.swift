import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Pipeline
import SystemIO
import SystemPackage

/// What the system service says to one agent (Act, Feedback) or inspector (Inspection): the seat decides to whom.
extension BusService {
    /// Tells one agent (by its unique name, never every listener) which of its user's
    /// bindings fired, whether for its command or its signal, with the gesture's variables: a signal addressed to it, which only
    /// it receives; it takes it only from the owner of org.gestured.Gestured1 (root's).
    /// Dropped, said once until one goes out again, when the bus is not taking what it has.
    public func act(_ action: AgentAction) {
        guard let bus else { return }
        guard hasRoom(bus) else {
            if !saidActionDrops { logger.warning("D-Bus: the system bus is not taking what gestured writes; \(action.binding) is not told to its agent (said once)") }
            saidActionDrops = true
            return
        }
        let act = Act(binding: action.binding, kind: action.kind, environment: action.environment)
        guard let message = act.signal(on: bus, to: action.agent) else { return logger.error("D-Bus: cannot build the Act signal for \(action.binding)") }
        defer { SDBus.unref(message) }
        if let error = SDBus.send(bus, message) { return logger.warning("D-Bus: cannot tell \(action.binding) to its agent: \(error)") }
        saidActionDrops = false
        updateWatch()
    }

    /// An overlay update, to the session in front's agent alone (never broadcast: where
    /// fingers are is no other client's business). While the bus is full only the latest
    /// is kept, sent when it has room (`LatestUpdates`).
    public func feedback(_ frame: FeedbackFrame, to agent: String) {
        send(frame, to: agent)
    }

    /// A tagged edge swipe's progress, to the session in front's agent alone, on the same terms.
    public func progress(_ update: ProgressUpdate, to agent: String) {
        send(update, to: agent)
    }

    /// An inspector's update, to it alone, on the same terms as the overlay's.
    public func inspection(_ frame: FeedbackFrame, to inspector: String) {
        guard let detail = frame.detail else { return }
        send(Inspection(frame: frame, detail: detail), to: inspector)
    }

    private func send<Update: GesturedMessage>(_ update: Update, to destination: String) {
        guard let bus else { return }
        latestUpdates.send(Update.member, to: destination, on: bus, hasRoom: hasRoom(bus)) { update.signal(on: $0, to: destination) }
        updateWatch()
    }
}
