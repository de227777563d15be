import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// Who a caller on the bus is, as dbus-daemon vouches for it: its user, and the logind
/// session its process belongs to (none for a user service: its process is in the
/// user's manager, not in a session).
public struct BusCaller: Equatable, Sendable {
    public var uid: UInt32
    public var session: String?

    public init(uid: UInt32, session: String?) {
        self.uid = uid
        self.session = session
    }
}

/// The callers of ReportApp on the system bus, each asked of dbus-daemon once
/// (`GetConnectionCredentials`) without waiting, and kept while it stays on the bus: a
/// caller's first report is held until the answer comes (1 s at most), later ones are
/// judged at once. Nothing here waits for the bus: a dbus-daemon that stops answering
/// costs the held reports, never the loop. Bounded: `mostAsked` callers asked at once
/// (a report from one more is dropped unanswered), one report held each (a newer one
/// replaces it), `mostKnown` remembered (past that, one is forgotten and asked again if
/// it calls again). The session comes from the caller's process id, which dbus-daemon
/// took when it connected, through logind's cgroup (`sd_pid_get_session`, a read of
/// /proc): a process gone and its id reused meanwhile would also have left the bus.
final class BusCallers {
    static let mostAsked = 256
    static let mostKnown = 1024
    static let answerTimeout: UInt64 = 1_000_000

    private var known: [String: BusCaller] = [:]
    private var asked: [String: Lookup] = [:]

    /// The caller, when known.
    func caller(_ sender: String) -> BusCaller? { known[sender] }

    /// Holds `call` (a ReportApp of `sender`, not yet known) until dbus-daemon says who
    /// it is, then hands it to `judge` with what it said (nil: it did not, in time);
    /// false when the call cannot be held (too many asked, or the question not sent).
    func hold(_ call: OpaquePointer, from sender: String, on bus: OpaquePointer,
              judge: @escaping (OpaquePointer, BusCaller?) -> Void) -> Bool {
        if let lookup = asked[sender] {
            lookup.hold(call)
            return true
        }
        guard asked.count < Self.mostAsked else { return false }
        var question: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &question, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                             "org.freedesktop.DBus", "GetConnectionCredentials") >= 0, let question else { return false }
        defer { sd_bus_message_unref(question) }
        guard sender.withCString({ sd_bus_message_append_basic(question, Character("s").asCChar, $0) }) >= 0 else { return false }
        let lookup = Lookup(judge)
        lookup.hold(call)
        let box = Unmanaged.passRetained(Answer { [weak self] reply in self?.answered(sender, reply) }).toOpaque()
        var slot: OpaquePointer?
        guard sd_bus_call_async(bus, &slot, question, { reply, userdata, _ in
            guard let reply, let userdata else { return 0 }
            Unmanaged<Answer>.fromOpaque(userdata).takeUnretainedValue().answer(reply)
            return 0
        }, box, Self.answerTimeout) >= 0, let slot else {
            Unmanaged<Answer>.fromOpaque(box).release()
            lookup.drop()
            return false
        }
        sd_bus_slot_set_destroy_callback(slot) { userdata in
            if let userdata { Unmanaged<Answer>.fromOpaque(userdata).release() }
        }
        // The bus's from now on: it lets go of it once answered, timed out or closed.
        _ = sd_bus_slot_set_floating(slot, 1)
        asked[sender] = lookup
        return true
    }

    /// A caller left the bus: forgotten, and what it had held dropped (the answer to
    /// its question, when it comes, is then for no one).
    func forget(_ sender: String) {
        known[sender] = nil
        asked.removeValue(forKey: sender)?.drop()
    }

    /// Every caller forgotten (the connection closed).
    func forgetAll() {
        known = [:]
        for lookup in asked.values { lookup.drop() }
        asked = [:]
    }

    private func answered(_ sender: String, _ reply: OpaquePointer) {
        guard let lookup = asked.removeValue(forKey: sender) else { return }
        let caller = SDBus.error(of: reply) == nil ? Self.read(reply) : nil
        if let caller {
            if known.count >= Self.mostKnown { known.remove(at: known.startIndex) }
            known[sender] = caller
        }
        lookup.judge(caller)
    }

    /// GetConnectionCredentials' `a{sv}`: UnixUserID and ProcessID; nil without a user.
    private static func read(_ reply: OpaquePointer) -> BusCaller? {
        guard sd_bus_message_enter_container(reply, Character("a").asCChar, "{sv}") > 0 else { return nil }
        var uid: UInt32?, pid: UInt32?
        while sd_bus_message_enter_container(reply, Character("e").asCChar, "sv") > 0 {
            var key: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(reply, Character("s").asCChar, &key) > 0, let key else { return nil }
            switch String(cString: key) {
            case "UnixUserID", "ProcessID":
                var value: UInt32 = 0
                guard sd_bus_message_enter_container(reply, Character("v").asCChar, "u") > 0,
                      sd_bus_message_read_basic(reply, Character("u").asCChar, &value) > 0 else { return nil }
                _ = sd_bus_message_exit_container(reply)
                if String(cString: key) == "UnixUserID" { uid = value } else { pid = value }
            default:
                guard sd_bus_message_skip(reply, "v") >= 0 else { return nil }
            }
            _ = sd_bus_message_exit_container(reply)
        }
        guard let uid else { return nil }
        return BusCaller(uid: uid, session: pid.flatMap(session(of:)))
    }

    /// The logind session a process belongs to; nil when none (or it is gone).
    static func session(of pid: UInt32) -> String? {
        guard pid > 0, pid <= UInt32(Int32.max) else { return nil }
        var session: UnsafeMutablePointer<CChar>?
        guard sd_pid_get_session(pid_t(pid), &session) >= 0, let session else { return nil }
        defer { free(session) }
        return SDBus.peerString(session, limit: 64)
    }

    /// A caller's question out, and the one call of it held.
    private final class Lookup {
        let judge: (OpaquePointer, BusCaller?) -> Void
        private var held: OpaquePointer?

        init(_ judge: @escaping (OpaquePointer, BusCaller?) -> Void) { self.judge = judge }

        func hold(_ call: OpaquePointer) {
            if let held { sd_bus_message_unref(held) }
            held = sd_bus_message_ref(call)
        }

        func judge(_ caller: BusCaller?) {
            guard let call = held else { return }
            held = nil
            judge(call, caller)
            sd_bus_message_unref(call)
        }

        /// Nothing held any more.
        func drop() {
            if let held { sd_bus_message_unref(held) }
            held = nil
        }
    }

    private final class Answer {
        let answer: (OpaquePointer) -> Void
        init(_ answer: @escaping (OpaquePointer) -> Void) { self.answer = answer }
    }
}
