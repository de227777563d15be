import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import SystemIO
import SystemPackage

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
    static let microsecondsPerWakeUp: Int64 = 1000

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

    /// NameOwnerChanged for `name`: its new owner, empty when it went away; nil for
    /// another name.
    static func newOwner(_ message: OpaquePointer, of name: String) -> String? {
        var changed: UnsafePointer<CChar>?, old: UnsafePointer<CChar>?, new: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, Character("s").asCChar, &changed) > 0,
              sd_bus_message_read_basic(message, Character("s").asCChar, &old) > 0,
              sd_bus_message_read_basic(message, Character("s").asCChar, &new) > 0,
              let changed, String(cString: changed) == name, let new else { return nil }
        return String(cString: new)
    }

    /// A call's error reply, in words; nil for a method return.
    static func error(of reply: OpaquePointer) -> String? {
        guard sd_bus_message_is_method_error(reply, nil) > 0 else { return nil }
        guard let error = sd_bus_message_get_error(reply)?.pointee else { return "refused" }
        return error.message.map { String(cString: $0) } ?? error.name.map { String(cString: $0) } ?? "refused"
    }
}
