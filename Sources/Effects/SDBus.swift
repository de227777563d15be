import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import SystemIO
import SystemPackage
import TouchCore

/// What every sd-bus connection of the loop's needs: what to watch, when to come back,
/// and handling all that arrived without waiting.
enum SDBus {
    /// The descriptor, and whether output waits for room; nil when sd-bus cannot say.
    static func watch(of bus: OpaquePointer) -> BusService.Watch? {
        let fd = sd_bus_get_fd(bus)
        let events = sd_bus_get_events(bus)
        guard fd >= 0, events >= 0 else { return nil }
        return BusService.Watch(fd: FileDescriptor(rawValue: fd), writable: events & Int32(POLLOUT) != 0)
    }

    /// The watch now, when it is not `watching` any more: the loop is to be told.
    static func rewatch(_ watching: inout BusService.Watch?, _ bus: OpaquePointer?) -> (old: BusService.Watch?, new: BusService.Watch?)? {
        let next = bus.flatMap(watch)
        guard next != watching else { return nil }
        defer { watching = next }
        return (watching, next)
    }

    /// When sd-bus next needs processing even if nothing arrives (a reply's timeout), on
    /// the monotonic clock in microseconds.
    static func deadline(of bus: OpaquePointer) -> Int64? {
        var usec: UInt64 = 0
        guard sd_bus_get_timeout(bus, &usec) > 0, usec != UInt64.max else { return nil }
        return Int64(clamping: usec)
    }

    /// At most this many messages a connection handles a wake-up, and none more once
    /// this long has passed: a peer that floods a connection (anyone may read the
    /// properties) cannot hold the loop. What is left is handled at the next wake-up,
    /// after the loop's other sources: sd-bus asks for it at once (its timeout is 0 while
    /// messages wait), or the descriptor is still readable.
    static let messagesPerWakeUp = 64
    static let microsecondsPerWakeUp: Int64 = 500

    /// Sends `message` without waiting; `answer` gets its reply (an error too, a timeout
    /// after `timeout` µs, 0: sd-bus's 25 s). The slot is the caller's (unref'd, the call
    /// is cancelled) or, `floating`, the bus's, let go once answered; the answer's closure
    /// lives as long as the slot. Nil (and no slot) when it could not be sent.
    @discardableResult
    static func call(_ bus: OpaquePointer, _ message: OpaquePointer, timeout: UInt64 = 0, floating: Bool = false,
                     _ answer: @escaping (OpaquePointer) -> Void) -> OpaquePointer? {
        let box = Unmanaged.passRetained(Answer(answer)).toOpaque()
        var slot: OpaquePointer?
        guard sd_bus_call_async(bus, &slot, message, { reply, userdata, _ in
            guard let reply, let userdata else { return 0 }
            Unmanaged<Answer>.fromOpaque(userdata).takeUnretainedValue().answer(reply)
            return 0
        }, box, timeout) >= 0, let slot else {
            Unmanaged<Answer>.fromOpaque(box).release()
            return nil
        }
        sd_bus_slot_set_destroy_callback(slot) { userdata in
            if let userdata { Unmanaged<Answer>.fromOpaque(userdata).release() }
        }
        if floating { _ = sd_bus_slot_set_floating(slot, 1) }
        return slot
    }

    private final class Answer {
        let answer: (OpaquePointer) -> Void
        init(_ answer: @escaping (OpaquePointer) -> Void) { self.answer = answer }
    }

    /// Handles what is queued, within the budget above and without waiting; the error
    /// of a connection that died.
    static func process(_ bus: OpaquePointer) -> Errno? {
        let start = monotonicMicroseconds()
        for _ in 0..<messagesPerWakeUp {
            let rc = sd_bus_process(bus, nil)
            if rc == 0 { return nil }
            if rc < 0 { return Errno(rawValue: -rc) }
            if monotonicMicroseconds() - start >= microsecondsPerWakeUp { return nil }
        }
        return nil
    }

    // MARK: A client that waits (gestured status: no loop), a few seconds at most

    /// A connection to `kind`'s bus whose calls wait at most 5 s; close it with `closeWaiting`.
    static func openWaiting(_ kind: BusService.Kind) -> Result<OpaquePointer, Errno> {
        var handle: OpaquePointer?
        let rc = kind == .system ? sd_bus_open_system(&handle) : sd_bus_open_user(&handle)
        guard rc >= 0, let bus = handle else { return .failure(Errno(rawValue: -rc)) }
        _ = sd_bus_set_method_call_timeout(bus, 5_000_000)
        return .success(bus)
    }

    static func closeWaiting(_ bus: OpaquePointer) { sd_bus_flush_close_unref(bus) }

    /// Why a waiting call failed: the peer's words, made printable, or the errno's.
    struct Failed: Error { var words: String }

    /// Calls `member` and waits for its answer (none expected back but success), or why not.
    static func callWaiting(_ bus: OpaquePointer, of destination: String, at path: String, _ interface: String, _ member: String,
                            _ arguments: (OpaquePointer) -> Bool) -> Result<Void, Failed> {
        guard let message = newCall(bus, destination, path, interface, member) else { return .failure(Failed(words: "cannot make the call")) }
        defer { unref(message) }
        guard arguments(message) else { return .failure(Failed(words: "cannot write the call's arguments")) }
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let rc = sd_bus_call(bus, message, 0, &error, &reply)
        if let reply { unref(reply) }
        guard rc >= 0 else { return .failure(Failed(words: error.message.map { peerString($0) } ?? "\(Errno(rawValue: -rc))")) }
        return .success(())
    }

    /// A property's value (a reply to unref), or why not.
    static func property(_ bus: OpaquePointer, of destination: String, at path: String, _ interface: String, _ name: String,
                         type: String) -> Result<OpaquePointer, Failed> {
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let rc = sd_bus_get_property(bus, destination, path, interface, name, &error, &reply, type)
        guard rc >= 0, let reply else { return .failure(Failed(words: error.message.map { peerString($0) } ?? "\(Errno(rawValue: -rc))")) }
        return .success(reply)
    }
}
