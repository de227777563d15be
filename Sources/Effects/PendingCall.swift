import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// One asynchronous method call at a time on a connection: a newer question cancels the
/// older one, whose answer would be moot. The answer's closure lives with the call's
/// slot, released by sd-bus when the call is answered, cancelled or the bus closed.
final class PendingCall {
    private var slot: OpaquePointer?

    deinit { cancel() }

    /// False when the call could not be queued.
    @discardableResult
    func ask(_ bus: OpaquePointer, _ destination: String, _ path: String, _ interface: String, _ member: String,
             strings: [String] = [], uid: UInt32? = nil, bytes: [UInt8]? = nil, _ answer: @escaping (OpaquePointer) -> Void) -> Bool {
        guard let message = SDBus.newCall(bus, destination, path, interface, member) else { return false }
        defer { SDBus.unref(message) }
        var ok = strings.allSatisfy { SDBus.append(message, $0) }
        if let uid { ok = ok && SDBus.append(message, uid) }
        if let bytes { ok = ok && SDBus.append(message, bytes: bytes) }
        guard ok else { return false }
        cancel()
        guard let slot = SDBus.call(bus, message, answer) else { return false }
        self.slot = slot
        return true
    }

    func cancel() {
        if let slot { sd_bus_slot_unref(slot) }
        slot = nil
    }
}
