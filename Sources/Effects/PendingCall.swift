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
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &message, destination, path, interface, member) >= 0, let message else { return false }
        defer { sd_bus_message_unref(message) }
        var ok = strings.allSatisfy { s in s.withCString { sd_bus_message_append_basic(message, Character("s").asCChar, $0) >= 0 } }
        if var uid { ok = ok && sd_bus_message_append_basic(message, Character("u").asCChar, &uid) >= 0 }
        if let bytes {
            ok = ok && bytes.withUnsafeBytes { sd_bus_message_append_array(message, Character("y").asCChar, $0.baseAddress, $0.count) >= 0 }
        }
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
