import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Logging
import SystemPackage

/// Follows whether the session in front of the touchscreen is locked: logind's
/// `LockedHint` of seat0's active session (the system service), or of the user's own
/// graphical session (the user service: `org.freedesktop.login1.User.Display`). It
/// looks again whenever logind announces a change of the seat's active session, of the
/// session's properties, or of its own owner (restarted). Every call is asynchronous on
/// a system-bus connection of its own, which the loop watches; without logind the
/// session counts as unlocked, said once.
public final class LogindWatcher {
    public enum Session: Sendable {
        /// seat0's active session, whoever it is.
        case seat
        /// This user's own graphical session.
        case ownUser(uid: UInt32)
    }

    static let service = "org.freedesktop.login1"
    static let seatPath = "/org/freedesktop/login1/seat/seat0"

    private let session: Session
    private let logger: Logger
    private var bus: OpaquePointer?
    private var slots: [OpaquePointer] = []
    private let call = PendingCall()
    /// The session followed, and the object whose changes lead to it (the seat, the user).
    private var sessionPath: String?
    private var leadPath: String?
    private var saidMissing = false
    public private(set) var locked = false
    private var watching: BusService.Watch?
    /// Called when the lock changes, with why.
    public var onChange: (_ locked: Bool, _ why: String) -> Void = { _, _ in }
    /// Called when what the loop must watch changes.
    public var onWatchChange: (_ old: BusService.Watch?, _ new: BusService.Watch?) -> Void = { _, _ in }

    public init(_ session: Session, logger: Logger) {
        self.session = session
        self.logger = logger
    }

    deinit {
        // Not close(): the owner going away must not be told what to stop watching.
        call.cancel()
        for slot in slots { sd_bus_slot_unref(slot) }
        if let bus { sd_bus_close_unref(bus) }
    }

    /// Connects and asks; false when there is no system bus (said once).
    @discardableResult
    public func start() -> Bool {
        var handle: OpaquePointer?
        let rc = sd_bus_open_system(&handle)
        guard rc >= 0, let handle else {
            return missing("cannot connect to the system bus (\(Errno(rawValue: -rc)))")
        }
        bus = handle
        let me = Unmanaged.passUnretained(self).toOpaque()
        let changed: sd_bus_message_handler_t = { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            Unmanaged<LogindWatcher>.fromOpaque(userdata).takeUnretainedValue().propertiesChanged(message)
            return 0
        }
        let owner: sd_bus_message_handler_t = { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            Unmanaged<LogindWatcher>.fromOpaque(userdata).takeUnretainedValue().ownerChanged(message)
            return 0
        }
        var a: OpaquePointer?, b: OpaquePointer?
        var ok = sd_bus_match_signal_async(handle, &a, Self.service, nil, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                                           changed, nil, me) >= 0
        ok = ok && sd_bus_match_signal_async(handle, &b, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                             "NameOwnerChanged", owner, nil, me) >= 0
        slots = [a, b].compactMap { $0 }
        guard ok else {
            close()
            return missing("cannot follow logind's signals")
        }
        look()
        updateWatch()
        return true
    }

    public func process() {
        guard let bus else { return }
        if let error = SDBus.process(bus) {
            close()
            logger.warning("logind: the system bus went away (\(error)); the session counts as unlocked")
            set(false, why: "the system bus went away")
            return
        }
        updateWatch()
    }

    public var nextDeadline: Int64? { bus.flatMap(SDBus.deadline) }
    public var currentWatch: BusService.Watch? { watching }

    // MARK: Looking

    /// From the start: the session (through the seat or the user), then its lock.
    private func look() {
        switch session {
        case .seat:
            leadPath = Self.seatPath
            get(Self.seatPath, "org.freedesktop.login1.Seat", "ActiveSession") { [unowned self] reply in sessionFound(reply) }
        case .ownUser(let uid):
            ask(Self.service, "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "GetUser", uid: uid) { [unowned self] reply in
                var path: UnsafePointer<CChar>?
                guard sd_bus_message_read_basic(reply, Character("o").asCChar, &path) > 0, let path else { return unreadable("GetUser") }
                leadPath = String(cString: path)
                get(leadPath!, "org.freedesktop.login1.User", "Display") { [unowned self] reply in sessionFound(reply) }
            }
        }
    }

    /// `(so)` in a variant: the session's id and path ("/" for none).
    private func sessionFound(_ reply: OpaquePointer) {
        var id: UnsafePointer<CChar>?, path: UnsafePointer<CChar>?
        guard sd_bus_message_enter_container(reply, Character("v").asCChar, "(so)") > 0,
              sd_bus_message_enter_container(reply, Character("r").asCChar, "so") > 0,
              sd_bus_message_read_basic(reply, Character("s").asCChar, &id) > 0,
              sd_bus_message_read_basic(reply, Character("o").asCChar, &path) > 0, let path
        else { return unreadable("the session") }
        let found = String(cString: path)
        if found == "/" {
            sessionPath = nil
            return set(false, why: "no session is active")
        }
        if found != sessionPath { logger.info("logind: following the lock of session \(id.map { String(cString: $0) } ?? found)") }
        sessionPath = found
        get(found, "org.freedesktop.login1.Session", "LockedHint") { [unowned self] reply in
            var locked: Int32 = 0
            guard sd_bus_message_enter_container(reply, Character("v").asCChar, "b") > 0,
                  sd_bus_message_read_basic(reply, Character("b").asCChar, &locked) > 0 else { return unreadable("LockedHint") }
            set(locked != 0, why: "logind: LockedHint of \(found)")
        }
    }

    private func propertiesChanged(_ message: OpaquePointer) {
        guard let path = sd_bus_message_get_path(message).map({ String(cString: $0) }) else { return }
        if path == leadPath || path == sessionPath { look() }
    }

    private func ownerChanged(_ message: OpaquePointer) {
        guard SDBus.newOwner(message, of: Self.service) != nil else { return }
        look()
    }

    private func set(_ locked: Bool, why: String) {
        guard locked != self.locked else { return }
        self.locked = locked
        onChange(locked, why)
    }

    private func unreadable(_ what: String) {
        logger.warning("logind: cannot read \(what) from its answer; the session counts as unlocked")
        set(false, why: "logind's answer was unreadable")
    }

    private func missing(_ why: String) -> Bool {
        if !saidMissing { logger.warning("logind: \(why); the session counts as unlocked, and every gesture of the mode fires") }
        saidMissing = true
        return false
    }

    // MARK: Calls

    /// A property's value, as `Properties.Get` answers it (a variant).
    private func get(_ path: String, _ interface: String, _ property: String, _ answer: @escaping (OpaquePointer) -> Void) {
        ask(Self.service, path, "org.freedesktop.DBus.Properties", "Get", strings: [interface, property], answer)
    }

    /// An error (no logind) is the unlocked case, said once.
    private func ask(_ destination: String, _ path: String, _ interface: String, _ member: String, strings: [String] = [],
                     uid: UInt32? = nil, _ answer: @escaping (OpaquePointer) -> Void) {
        guard let bus else { return }
        call.ask(bus, destination, path, interface, member, strings: strings, uid: uid) { [unowned self] reply in
            if let error = SDBus.error(of: reply) {
                _ = missing("logind does not answer (\(error))")
                sessionPath = nil
                return set(false, why: "logind does not answer")
            }
            saidMissing = false
            answer(reply)
        }
        updateWatch()
    }

    private func updateWatch() {
        if let change = SDBus.rewatch(&watching, bus) { onWatchChange(change.old, change.new) }
    }

    private func close() {
        call.cancel()
        for slot in slots { sd_bus_slot_unref(slot) }
        slots = []
        if let bus { sd_bus_close_unref(bus) }
        bus = nil
        updateWatch()
    }
}
