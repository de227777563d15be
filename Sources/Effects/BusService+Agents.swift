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
    /// SetUserConfiguration's arguments, whole (the seat bounds them; the bus already
    /// bounds a message): the file's name as the agent gives it, its text and the parser's document.
    static func readUserPush(_ call: OpaquePointer) -> UserPush? {
        guard let file = SDBus.readWholeString(call, atMost: 4096) else { return nil }
        var text: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(call, Character("s").asCChar, &text) > 0, let text,
              let document = SDBus.readBytes(call) else { return nil }
        return UserPush(file: file.tooLong ? "(a name too long)" : file.text, text: String(cString: text), document: document)
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
        var message: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &message, Self.path, Self.interface, "Act") >= 0, let message else { return }
        defer { sd_bus_message_unref(message) }
        var ok = sd_bus_message_set_destination(message, action.agent) >= 0 && appendString(message, action.binding)
            && appendString(message, action.kind.rawValue)
        ok = ok && sd_bus_message_open_container(message, Character("a").asCChar, "s") >= 0
            && action.environment.allSatisfy { appendString(message, $0) } && sd_bus_message_close_container(message) >= 0
        guard ok else { return logger.error("D-Bus: cannot build the Act signal for \(action.binding)") }
        let rc = sd_bus_send(bus, message, nil)
        if rc < 0 { return logger.warning("D-Bus: cannot tell \(action.binding) to its agent: \(Errno(rawValue: -rc))") }
        saidActionDrops = false
        updateWatch()
    }
}
