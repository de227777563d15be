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
             strings: [String] = [], uid: UInt32? = nil, _ answer: @escaping (OpaquePointer) -> Void) -> Bool {
        ask(bus, destination, path, interface, member, writing: { message in
            strings.allSatisfy { SDBus.append(message, $0) } && (uid.map { SDBus.append(message, $0) } ?? true)
        }, answer)
    }

    /// One of gestured's own methods (`GesturedMessage`), at the service's object.
    @discardableResult
    func ask(_ bus: OpaquePointer, _ message: some GesturedMessage, _ answer: @escaping (OpaquePointer) -> Void) -> Bool {
        ask(bus, BusService.name, BusService.path, BusService.interface, type(of: message).member, writing: message.write, answer)
    }

    private func ask(_ bus: OpaquePointer, _ destination: String, _ path: String, _ interface: String, _ member: String,
                     writing write: (OpaquePointer) -> Bool, _ answer: @escaping (OpaquePointer) -> Void) -> Bool {
        guard let message = SDBus.newCall(bus, destination, path, interface, member) else { return false }
        defer { SDBus.unref(message) }
        guard write(message) else { return false }
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
