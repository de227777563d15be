import Bindings
import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Gestures
import Logging
import SystemPackage

/// Emits `org.gestured.Gestured1.Gesture(name, type, phase, values a{sv})` on the system
/// or session bus through sd-bus, without ever waiting for it: signals are queued and
/// written when the bus's descriptor has room (the loop watches it for that), the name is
/// requested asynchronously, and nothing is flushed in between. A missing bus is logged
/// once and tried again when a gesture needs it, at most every `retry` (doubling up to a
/// minute while it stays away), never on a timer.
public final class BusEmitter {
    static let name = "org.gestured.Gestured1"
    static let path = "/org/gestured/Gestured1"
    static let interface = "org.gestured.Gestured1"
    static let firstRetryMicroseconds: Int64 = 1_000_000
    static let longestRetryMicroseconds: Int64 = 60_000_000

    public enum Kind: Sendable { case system, session }

    /// What the loop watches on the bus: its descriptor, and whether output waits for room.
    public struct Watch: Equatable, Sendable {
        public var fd: FileDescriptor
        public var writable: Bool
    }

    public let kind: Kind
    private let logger: Logger
    private var bus: OpaquePointer?
    private var reportedDown = false
    private var retryAt: Int64 = 0
    private var retryDelay = BusEmitter.firstRetryMicroseconds
    private var watching: Watch?
    /// Called when what the loop must watch changes: connected, output queued or written, gone.
    public var onWatchChange: (_ old: Watch?, _ new: Watch?) -> Void = { _, _ in }

    public init(kind: Kind, logger: Logger) {
        self.kind = kind
        self.logger = logger
    }

    deinit {
        if let bus { sd_bus_close_unref(bus) }
    }

    /// Connects, exports the object and asks for the well-known name, none of it waiting
    /// for the bus; false (logged once) when the bus is not there, or was not a moment ago.
    @discardableResult
    public func connect(now: Int64) -> Bool {
        guard bus == nil else { return true }
        guard now >= retryAt else { return false }
        var handle: OpaquePointer?
        var rc = kind == .system ? sd_bus_open_system(&handle) : sd_bus_open_user(&handle)
        guard rc >= 0, let handle else { return down("cannot connect to the \(kind) bus: \(Errno(rawValue: -rc))", now: now) }
        rc = gestured_bus_add_gesture_object(handle, Self.path, Self.interface)
        if rc >= 0 {
            rc = sd_bus_request_name_async(handle, nil, Self.name, 0, { reply, userdata, _ in
                guard let reply, let userdata else { return 0 }
                Unmanaged<BusEmitter>.fromOpaque(userdata).takeUnretainedValue().nameReplied(reply)
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        }
        guard rc >= 0 else {
            sd_bus_close_unref(handle)
            return down("cannot set up the \(kind) bus connection: \(Errno(rawValue: -rc))", now: now)
        }
        bus = handle
        reportedDown = false
        retryDelay = Self.firstRetryMicroseconds
        logger.info("D-Bus: connecting to the \(kind) bus")
        updateWatch()
        return true
    }

    private func nameReplied(_ reply: OpaquePointer) {
        if sd_bus_message_is_method_error(reply, nil) > 0 {
            let error = sd_bus_message_get_error(reply)?.pointee.message.map { String(cString: $0) } ?? "refused"
            // Signals still reach clients that match on the interface; say why the name is missing.
            logger.warning("D-Bus: cannot own \(Self.name) on the \(kind) bus: \(error) (see the bus policy in dbus/)")
        } else {
            logger.info("D-Bus: connected to the \(kind) bus as \(Self.name)")
        }
    }

    /// Handles what the bus has for us (replies, introspection calls) and writes what is
    /// queued, as far as it goes without waiting; drops a dead connection.
    public func process() {
        guard let bus else { return }
        while true {
            let rc = sd_bus_process(bus, nil)
            if rc == 0 { break }
            if rc < 0 {
                return disconnect(reason: "the \(kind) bus went away (\(Errno(rawValue: -rc))); will reconnect for the next gesture")
            }
        }
        updateWatch()
    }

    /// When sd-bus next needs `process()` even if nothing arrives (a reply's timeout),
    /// on the monotonic clock in microseconds.
    public var nextDeadline: Int64? {
        guard let bus else { return nil }
        var usec: UInt64 = 0
        guard sd_bus_get_timeout(bus, &usec) > 0, usec != UInt64.max else { return nil }
        return Int64(clamping: usec)
    }

    /// What the loop watches now; nil while not connected.
    public var currentWatch: Watch? { watching }

    /// Whether signals are still queued for the bus.
    public var hasQueuedOutput: Bool { watching?.writable ?? false }

    /// Gives queued signals up to `microseconds` to go out: at exit, so the last gestures
    /// of a replay or before a stop are not lost.
    public func finish(within microseconds: Int64, now: () -> Int64) {
        guard let bus else { return }
        let end = now() + microseconds
        while hasQueuedOutput, now() < end {
            _ = sd_bus_wait(bus, UInt64(max(0, end - now())))
            process()
        }
    }

    public func emit(_ event: GestureEvent, device: String, now: Int64) {
        guard connect(now: now), let bus else { return }
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
        // Queued, and written as far as the socket takes it now; the rest when it has room.
        let rc = sd_bus_send(bus, message, nil)
        if rc < 0 {
            return disconnect(reason: "cannot send on the \(kind) bus (\(Errno(rawValue: -rc))); will reconnect for the next gesture")
        }
        updateWatch()
    }

    /// Tells the loop what to watch now: the descriptor, and room to write while output is queued.
    private func updateWatch() {
        var next: Watch?
        if let bus {
            let fd = sd_bus_get_fd(bus)
            let events = sd_bus_get_events(bus)
            if fd >= 0, events >= 0 { next = Watch(fd: FileDescriptor(rawValue: fd), writable: events & Int32(POLLOUT) != 0) }
        }
        guard next != watching else { return }
        let old = watching
        watching = next
        onWatchChange(old, next)
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

    private func down(_ message: String, now: Int64) -> Bool {
        if !reportedDown { logger.warning("D-Bus: \(message); gestures are still recognized and commands still run") }
        reportedDown = true
        retryAt = now + retryDelay
        retryDelay = min(retryDelay * 2, Self.longestRetryMicroseconds)
        return false
    }

    private func disconnect(reason: String) {
        guard let bus else { return }
        logger.warning("D-Bus: \(reason)")
        sd_bus_close_unref(bus)
        self.bus = nil
        updateWatch()
    }
}

extension Character {
    /// An ASCII character as the `char` sd-bus takes for a type code.
    var asCChar: CChar { CChar(asciiValue!) }
}
