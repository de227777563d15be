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
        guard BusQuestion.credentials(of: sender).ask(on: bus, timeout: Self.answerTimeout, { [weak self] _, said in
            self?.credentials(of: sender, said, on: bus)
        }) else {
            lookup.drop()
            return false
        }
        asked[sender] = lookup
        return true
    }

    /// dbus-daemon's answer (nil: none, or unreadable): the user, then logind is asked
    /// for the process's session.
    private func credentials(of sender: String, _ said: (uid: UInt32, pid: UInt32?)?, on bus: OpaquePointer) {
        guard asked[sender] != nil else { return }
        guard let (uid, pid) = said else { return decided(sender, nil) }
        guard let pid, BusQuestion.session(ofProcess: pid).ask(on: bus, timeout: Self.answerTimeout, { [weak self] _, session in
            self?.decided(sender, BusCaller(uid: uid, session: session))
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
