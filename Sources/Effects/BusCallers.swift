import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// Who a caller on the bus is: its user, as dbus-daemon vouches for it, and the logind
/// session its process belongs to, as logind says (none for a user service: its process
/// is in the user's manager, not in a session). The session is logind's object path.
public struct BusCaller: Equatable, Sendable {
    public var uid: UInt32
    public var session: String?

    public init(uid: UInt32, session: String?) {
        self.uid = uid
        self.session = session
    }
}

/// The callers of ReportApp and SetUserConfiguration on the system bus, each asked once
/// without waiting, and kept while it stays on the bus: dbus-daemon says its user and
/// process (`GetConnectionCredentials`), then logind the session of that process
/// (`GetSessionByPID`; the service cannot read other users' processes itself,
/// ProtectProc=invisible). A caller's first call is held until both have answered (1 s
/// each at most; logind not answering, or not knowing the process, leaves it in no
/// session), later ones are judged at once. Held is only what answering it takes (its
/// sender and serial: `SDBus.answerable`), never its arguments, which go with the
/// message at once: a caller's bytes stay in the service only once it is judged.
/// Nothing here waits for the bus: a bus that stops answering costs the held calls,
/// never the loop. Bounded: `mostAsked` callers asked at once (a call from one more is
/// dropped unanswered), one call held each (a newer one replaces it), `mostKnown`
/// remembered (past that, one is forgotten and asked again if it calls again). A
/// caller's process gone and its id reused would also have left the bus (and been
/// forgotten).
final class BusCallers {
    static let mostAsked = 256
    static let mostKnown = 1024
    static let answerTimeout: UInt64 = 1_000_000

    private var known: [String: BusCaller] = [:]
    private var asked: [String: Lookup] = [:]

    /// The caller, when known.
    func caller(_ sender: String) -> BusCaller? { known[sender] }

    /// Holds what answering `call` (of `sender`, not yet known) takes until the bus says
    /// who it is, then hands that to `judge` with what it said (nil: it did not, in time);
    /// false when the call cannot be held (too many asked, or the question not sent).
    func hold(_ call: OpaquePointer, from sender: String, on bus: OpaquePointer,
              judge: @escaping (OpaquePointer, BusCaller?) -> Void) -> Bool {
        guard asked[sender] != nil || asked.count < Self.mostAsked, let answerable = SDBus.answerable(call, on: bus) else { return false }
        defer { SDBus.unref(answerable) }
        if let lookup = asked[sender] {
            lookup.hold(answerable)
            return true
        }
        let lookup = Lookup(judge)
        lookup.hold(answerable)
        guard ask(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetConnectionCredentials",
                  { SDBus.append($0, sender) },
                  then: { [weak self] reply in self?.credentials(of: sender, reply, on: bus) }) else {
            lookup.drop()
            return false
        }
        asked[sender] = lookup
        return true
    }

    /// dbus-daemon's answer: the user, then logind is asked for the process's session.
    private func credentials(of sender: String, _ reply: OpaquePointer, on bus: OpaquePointer) {
        guard asked[sender] != nil else { return }
        guard SDBus.error(of: reply) == nil, let (uid, pid) = Self.read(reply) else { return decided(sender, nil) }
        guard let pid, ask(bus, "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "GetSessionByPID",
                           { SDBus.append($0, pid) },
                           then: { [weak self] reply in
                               self?.decided(sender, BusCaller(uid: uid, session: SDBus.error(of: reply) == nil ? SDBus.readObjectPath(reply) : nil))
                           }) else { return decided(sender, BusCaller(uid: uid, session: nil)) }
    }

    private func decided(_ sender: String, _ caller: BusCaller?) {
        guard let lookup = asked.removeValue(forKey: sender) else { return }
        if let caller {
            if known.count >= Self.mostKnown { known.remove(at: known.startIndex) }
            known[sender] = caller
        }
        lookup.judge(caller)
    }

    /// A method call whose answer (or error, or timeout) goes to `then`; false when it
    /// could not be sent. The call's slot is the bus's: let go once answered.
    private func ask(_ bus: OpaquePointer, _ destination: String, _ path: String, _ interface: String, _ member: String,
                     _ append: (OpaquePointer) -> Bool, then: @escaping (OpaquePointer) -> Void) -> Bool {
        guard let question = SDBus.newCall(bus, destination, path, interface, member) else { return false }
        defer { SDBus.unref(question) }
        guard append(question) else { return false }
        return SDBus.call(bus, question, timeout: Self.answerTimeout, floating: true, then) != nil
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

    /// GetConnectionCredentials' `a{sv}`: UnixUserID and ProcessID; nil without a user.
    private static func read(_ reply: OpaquePointer) -> (uid: UInt32, pid: UInt32?)? {
        guard SDBus.enter(reply, "a", "{sv}") else { return nil }
        var uid: UInt32?, pid: UInt32?
        while SDBus.enter(reply, "e", "sv") {
            guard let key = SDBus.readString(reply, limit: 64) else { return nil }
            switch key {
            case "UnixUserID", "ProcessID":
                guard SDBus.enter(reply, "v", "u"), let value = SDBus.readUInt32(reply) else { return nil }
                SDBus.exit(reply)
                if key == "UnixUserID" { uid = value } else { pid = value }
            default:
                guard SDBus.skip(reply, "v") else { return nil }
            }
            SDBus.exit(reply)
        }
        guard let uid else { return nil }
        return (uid, pid)
    }

    /// A caller's question out, and what answering the one call of it held takes.
    private final class Lookup {
        let judge: (OpaquePointer, BusCaller?) -> Void
        private var held: OpaquePointer?

        init(_ judge: @escaping (OpaquePointer, BusCaller?) -> Void) { self.judge = judge }

        func hold(_ call: OpaquePointer) {
            if let held { SDBus.unref(held) }
            SDBus.ref(call)
            held = call
        }

        func judge(_ caller: BusCaller?) {
            guard let call = held else { return }
            held = nil
            judge(call, caller)
            SDBus.unref(call)
        }

        /// Nothing held any more.
        func drop() {
            if let held { SDBus.unref(held) }
            held = nil
        }
    }

}
