import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Pipeline
import SystemIO
import SystemPackage

/// What the system service takes from the sessions' agents (SetUserConfiguration) and
/// says to one (Act): the seat decides who may, this only reads and writes the messages.
extension BusService {
    /// SetUserConfiguration's arguments, read only for a caller the seat takes them from:
    /// the file's name as the agent gives it, its text and the parser's document, each
    /// copied only within a user's configuration's bounds (beyond them, only said how
    /// large: `UserPush.oversize`).
    static func readUserPush(_ call: OpaquePointer) -> UserPush? {
        guard let file = SDBus.readWholeString(call, atMost: 4096), let text = SDBus.readBoundedText(call, atMost: UserPush.longestText),
              let document = SDBus.readBoundedBytes(call, atMost: UserPush.longestDocument) else { return nil }
        let name = file.tooLong ? "(a name too long)" : file.text
        guard let text else { return UserPush(file: name, oversize: (.text, nil)) }
        guard let bytes = document.bytes else { return UserPush(file: name, oversize: (.document, document.size)) }
        return UserPush(file: name, text: text, document: bytes)
    }

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
        guard let message = SDBus.newSignal(bus, Self.path, Self.interface, "Act") else { return }
        defer { SDBus.unref(message) }
        let ok = SDBus.address(message, to: action.agent) && SDBus.append(message, action.binding)
            && SDBus.append(message, action.kind.rawValue) && SDBus.append(message, strings: action.environment)
        guard ok else { return logger.error("D-Bus: cannot build the Act signal for \(action.binding)") }
        if let error = SDBus.send(bus, message) { return logger.warning("D-Bus: cannot tell \(action.binding) to its agent: \(error)") }
        saidActionDrops = false
        updateWatch()
    }

    /// An overlay update, to the session in front's agent alone (never broadcast: where
    /// fingers are is no other client's business). Dropped while the bus is full: the
    /// next one draws the fingers where they are then.
    public func feedback(_ frame: FeedbackFrame, to agent: String) {
        guard let bus, hasRoom(bus), let message = Self.feedbackSignal(frame, to: agent, from: Self.path, Self.interface, on: bus) else { return }
        defer { SDBus.unref(message) }
        _ = SDBus.send(bus, message)
        updateWatch()
    }

    /// Feedback(panel, output, gesture, progress, verdict, fingers as x, y pairs over the
    /// output), addressed to `destination` (to unref): the service's to an agent, an
    /// agent's to GNOME Shell.
    static func feedbackSignal(_ frame: FeedbackFrame, to destination: String, from path: String, _ interface: String,
                               on bus: OpaquePointer) -> OpaquePointer? {
        guard let message = SDBus.newSignal(bus, path, interface, "Feedback") else { return nil }
        let ok = SDBus.address(message, to: destination) && SDBus.append(message, frame.panel) && SDBus.append(message, frame.output ?? "")
            && SDBus.append(message, frame.lead.gesture ?? "") && SDBus.append(message, frame.lead.progress)
            && SDBus.append(message, frame.lead.verdict.rawValue)
            && SDBus.container(message, "a", "d") { frame.fingers.allSatisfy { SDBus.append(message, $0.x) && SDBus.append(message, $0.y) } }
        guard ok else {
            SDBus.unref(message)
            return nil
        }
        return message
    }
}
