import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import SystemIO
import SystemPackage

/// One sd-bus connection of the loop's, wrapped once for the service and for those that
/// follow a peer (logind, iio-sensor-proxy, the running service): opening it, matching
/// signals, filtering and asking for a name with closures, handling what arrived within
/// the budget (`SDBus.process`), what the loop is to watch and when to come back, and
/// closing it. Each user says what it watches for; this says how.
final class BusConnection {
    /// The connection, while it is open.
    private(set) var bus: OpaquePointer?
    private var slots: [OpaquePointer] = []
    /// The matches' handlers, held while their slots live.
    private var handlers: [Handler] = []
    private var watching: BusService.Watch?
    /// What the loop is to watch changed (see `EventLoop`).
    var onWatchChange: (_ old: BusService.Watch?, _ new: BusService.Watch?) -> Void = { _, _ in }

    /// A message handler as sd-bus calls it: its answer is sd-bus's (for a filter, 1
    /// drops the message).
    final class Handler {
        let handle: (OpaquePointer) -> Int32
        init(_ handle: @escaping (OpaquePointer) -> Int32) { self.handle = handle }
    }

    /// Opens a connection to the bus; the error when there is none.
    init(_ kind: BusService.Kind) throws(Errno) {
        var handle: OpaquePointer?
        let rc = kind == .system ? sd_bus_open_system(&handle) : sd_bus_open_user(&handle)
        guard rc >= 0, let handle else { throw Errno(rawValue: -rc) }
        bus = handle
    }

    deinit {
        // Not close(): the owner going away must not be told what to stop watching.
        for slot in slots { sd_bus_slot_unref(slot) }
        if let bus { sd_bus_close_unref(bus) }
    }

    /// Calls `handle` with each signal that matches.
    func matchSignal(sender: String?, path: String?, interface: String, member: String,
                     _ handle: @escaping (OpaquePointer) -> Void) throws(Errno) {
        try add({ handle($0); return 0 }) { bus, slot, callback, userdata in
            sd_bus_match_signal_async(bus, &slot, sender, path, interface, member, callback, nil, userdata)
        }
    }

    /// The same for a match rule written out (a `path_namespace`, say).
    func match(rule: String, _ handle: @escaping (OpaquePointer) -> Void) throws(Errno) {
        try add({ handle($0); return 0 }) { bus, slot, callback, userdata in
            sd_bus_add_match_async(bus, &slot, rule, callback, nil, userdata)
        }
    }

    /// Sees every incoming message first: those `admits` refuses are dropped unanswered.
    func filter(_ admits: @escaping (OpaquePointer) -> Bool) throws(Errno) {
        try add({ admits($0) ? 0 : 1 }) { bus, slot, callback, userdata in sd_bus_add_filter(bus, &slot, callback, userdata) }
    }

    /// Asks for a well-known name without waiting; `reply` gets the bus's answer.
    func requestName(_ name: String, flags: UInt64, _ reply: @escaping (OpaquePointer) -> Void) throws(Errno) {
        try add({ reply($0); return 0 }) { bus, slot, callback, userdata in
            sd_bus_request_name_async(bus, &slot, name, flags, callback, userdata)
        }
    }

    private func add(_ handle: @escaping (OpaquePointer) -> Int32,
                     _ install: (OpaquePointer, inout OpaquePointer?, sd_bus_message_handler_t, UnsafeMutableRawPointer) -> Int32) throws(Errno) {
        guard let bus else { throw .socketNotConnected }
        let handler = Handler(handle)
        var slot: OpaquePointer?
        let rc = install(bus, &slot, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            return Unmanaged<Handler>.fromOpaque(userdata).takeUnretainedValue().handle(message)
        }, Unmanaged.passUnretained(handler).toOpaque())
        guard rc >= 0 else { throw Errno(rawValue: -rc) }
        if let slot { slots.append(slot) }
        handlers.append(handler)
    }

    /// NameOwnerChanged of `name`: its new owner, empty when it went away.
    func followOwner(of name: String, _ handle: @escaping (String) -> Void) throws(Errno) {
        try matchSignal(sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                        member: "NameOwnerChanged") { message in
            if let owner = PeerMessage.newOwner(message, of: name) { handle(owner) }
        }
    }

    /// Handles what arrived, within the budget; the error of a connection that died,
    /// which is then closed.
    func process() -> Errno? {
        guard let bus else { return nil }
        if let error = SDBus.process(bus) {
            close()
            return error
        }
        updateWatch()
        return nil
    }

    /// When sd-bus next needs processing even if nothing arrives (a reply's timeout).
    var nextDeadline: Int64? { bus.flatMap(SDBus.deadline) }
    var currentWatch: BusService.Watch? { watching }

    /// The loop is told when what to watch changed (a call queued output, the connection closed).
    func updateWatch() {
        if let change = SDBus.rewatch(&watching, bus) { onWatchChange(change.old, change.new) }
    }

    /// Drops the matches and the connection, and tells the loop to stop watching it.
    func close() {
        for slot in slots { sd_bus_slot_unref(slot) }
        slots = []
        handlers = []
        if let bus { sd_bus_close_unref(bus) }
        bus = nil
        updateWatch()
    }
}
