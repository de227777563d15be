import Bindings
import CSystemd
import Gestures
import Logging
import SystemPackage

/// Emits `org.gestured.Gestured1.Gesture(name, type, phase, values a{sv})` on the system
/// or session bus through sd-bus. A missing bus is logged once and retried when the next
/// gesture needs it, never on a timer; a bus that goes away is dropped and reconnected
/// the same way. Recognition never waits for it.
public final class BusEmitter {
    static let name = "org.gestured.Gestured1"
    static let path = "/org/gestured/Gestured1"
    static let interface = "org.gestured.Gestured1"

    public enum Kind: Sendable { case system, session }

    public let kind: Kind
    private let logger: Logger
    private var bus: OpaquePointer?
    private var reportedDown = false
    /// The descriptor the loop watches while connected.
    public private(set) var fd: FileDescriptor?
    /// Called when the descriptor changes (connect, disconnect) so the loop can follow it.
    public var onDescriptorChange: (_ old: FileDescriptor?, _ new: FileDescriptor?) -> Void = { _, _ in }

    public init(kind: Kind, logger: Logger) {
        self.kind = kind
        self.logger = logger
    }

    deinit {
        if let bus { sd_bus_flush_close_unref(bus) }
    }

    /// Connects, takes the well-known name and exports the object; false (logged once)
    /// when the bus is not there.
    @discardableResult
    public func connect() -> Bool {
        guard bus == nil else { return true }
        var handle: OpaquePointer?
        var rc = kind == .system ? sd_bus_open_system(&handle) : sd_bus_open_user(&handle)
        guard rc >= 0, let handle else { return down("cannot connect to the \(kind) bus: \(Errno(rawValue: -rc))") }
        rc = gestured_bus_add_gesture_object(handle, Self.path, Self.interface)
        if rc < 0 {
            sd_bus_unref(handle)
            return down("cannot export \(Self.path): \(Errno(rawValue: -rc))")
        }
        rc = sd_bus_request_name(handle, Self.name, 0)
        if rc < 0 {
            // Signals still reach clients that match on the interface; say why the name is missing.
            logger.warning("D-Bus: cannot own \(Self.name) on the \(kind) bus: \(Errno(rawValue: -rc)) (see the bus policy in dbus/)")
        }
        bus = handle
        reportedDown = false
        let busFD = sd_bus_get_fd(handle)
        guard busFD >= 0 else {
            sd_bus_unref(handle)
            return down("no descriptor for the \(kind) bus: \(Errno(rawValue: -busFD))")
        }
        let newFD = FileDescriptor(rawValue: busFD)
        onDescriptorChange(fd, newFD)
        fd = newFD
        logger.info("D-Bus: connected to the \(kind) bus\(rc >= 0 ? " as \(Self.name)" : "")")
        return true
    }

    /// Handles what arrived (introspection calls, name replies); drops a dead connection.
    public func process() {
        guard let bus else { return }
        while true {
            let rc = sd_bus_process(bus, nil)
            if rc == 0 { return }
            if rc < 0 {
                disconnect(reason: "the \(kind) bus went away (\(Errno(rawValue: -rc))); will reconnect for the next gesture")
                return
            }
        }
    }

    public func emit(_ event: GestureEvent, device: String) {
        guard connect(), let bus else { return }
        var message: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &message, Self.path, Self.interface, "Gesture") >= 0, let message else { return }
        defer { sd_bus_message_unref(message) }
        // name, type and phase are the arguments; the other fields go in the dictionary.
        let strings = GestureFields.strings(event)
        var ok = strings.prefix(3).allSatisfy { appendString(message, $0.1) }
        ok = ok && sd_bus_message_open_container(message, Character("a").asCChar, "{sv}") >= 0
        ok = ok && appendEntry(message, "fingers", int: Int32(event.fingers))
        for (key, value) in strings.dropFirst(3) { ok = ok && appendEntry(message, key, string: value) }
        for (key, value, _) in GestureFields.numbers(event) { ok = ok && appendEntry(message, key, double: value) }
        ok = ok && appendEntry(message, "device", string: device)
        ok = ok && sd_bus_message_close_container(message) >= 0
        guard ok else { return logger.error("D-Bus: cannot build the Gesture signal for \(event.name)") }
        let rc = sd_bus_send(bus, message, nil)
        if rc < 0 {
            disconnect(reason: "cannot send on the \(kind) bus (\(Errno(rawValue: -rc))); will reconnect for the next gesture")
            return
        }
        let flushed = sd_bus_flush(bus)
        if flushed < 0 {
            disconnect(reason: "cannot flush the \(kind) bus (\(Errno(rawValue: -flushed))); will reconnect for the next gesture")
        }
    }

    private func appendString(_ m: OpaquePointer, _ s: String) -> Bool {
        s.withCString { sd_bus_message_append_basic(m, Character("s").asCChar, $0) >= 0 }
    }

    private func appendEntry(_ m: OpaquePointer, _ key: String, string: String) -> Bool {
        appendEntry(m, key, "s") { appendString(m, string) }
    }

    private func appendEntry(_ m: OpaquePointer, _ key: String, double: Double) -> Bool {
        var value = double
        return appendEntry(m, key, "d") { sd_bus_message_append_basic(m, Character("d").asCChar, &value) >= 0 }
    }

    private func appendEntry(_ m: OpaquePointer, _ key: String, int: Int32) -> Bool {
        var value = int
        return appendEntry(m, key, "i") { sd_bus_message_append_basic(m, Character("i").asCChar, &value) >= 0 }
    }

    /// One `{sv}` entry: the key, then the value in a variant of `signature`.
    private func appendEntry(_ m: OpaquePointer, _ key: String, _ signature: String, _ value: () -> Bool) -> Bool {
        sd_bus_message_open_container(m, Character("e").asCChar, "sv") >= 0
            && appendString(m, key)
            && sd_bus_message_open_container(m, Character("v").asCChar, signature) >= 0
            && value()
            && sd_bus_message_close_container(m) >= 0
            && sd_bus_message_close_container(m) >= 0
    }

    private func down(_ message: String) -> Bool {
        if !reportedDown { logger.warning("D-Bus: \(message); gestures are still recognized and commands still run") }
        reportedDown = true
        return false
    }

    private func disconnect(reason: String) {
        guard let bus else { return }
        logger.warning("D-Bus: \(reason)")
        sd_bus_flush_close_unref(bus)
        self.bus = nil
        onDescriptorChange(fd, nil)
        fd = nil
    }
}

extension Character {
    /// An ASCII character as the `char` sd-bus takes for a type code.
    var asCChar: CChar { CChar(asciiValue!) }
}
