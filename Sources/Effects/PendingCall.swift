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

    /// A method (`BusQuestion`: a peer's, or the service's own with `.gestured`): its
    /// answer to `answer` with the reply (an error too). False when the call could not
    /// be queued.
    @discardableResult
    func ask<Answer>(_ bus: OpaquePointer, _ question: BusQuestion<Answer>, _ answer: @escaping (OpaquePointer, Answer?) -> Void) -> Bool {
        guard let message = question.call(on: bus) else { return false }
        defer { SDBus.unref(message) }
        cancel()
        guard let slot = SDBus.call(bus, message, { reply in answer(reply, question.answer(reply)) }) else { return false }
        self.slot = slot
        return true
    }

    func cancel() {
        if let slot { sd_bus_slot_unref(slot) }
        slot = nil
    }
}
