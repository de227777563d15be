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

    /// A peer's method (`BusQuestion`): its answer to `answer` with the reply (an error
    /// too). False when the call could not be queued.
    @discardableResult
    func ask<Answer>(_ bus: OpaquePointer, _ question: BusQuestion<Answer>, _ answer: @escaping (OpaquePointer, Answer?) -> Void) -> Bool {
        guard let message = question.call(on: bus) else { return false }
        defer { SDBus.unref(message) }
        return send(message, on: bus) { reply in answer(reply, question.answer(reply)) }
    }

    /// One of gestured's own methods (`GesturedMessage`), at the service's object.
    @discardableResult
    func ask(_ bus: OpaquePointer, _ message: some GesturedMessage, _ answer: @escaping (OpaquePointer) -> Void) -> Bool {
        guard let call = message.call(on: bus) else { return false }
        defer { SDBus.unref(call) }
        return send(call, on: bus, answer)
    }

    private func send(_ message: OpaquePointer, on bus: OpaquePointer, _ answer: @escaping (OpaquePointer) -> Void) -> Bool {
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
