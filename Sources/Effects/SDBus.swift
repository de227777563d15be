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

    // MARK: Reading a message: its next argument, nil when it is of another type or none
    // is left. Strings a peer wrote come bounded and printable (`peerString`); object
    // paths, which sd-bus has checked, come whole.

    static func readString(_ m: OpaquePointer, limit: Int = 256) -> String? {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(m, Character("s").asCChar, &value) > 0, let value else { return nil }
        return peerString(value, limit: limit)
    }

    /// A string argument whole, and whether it was longer than `atMost` bytes (then
    /// nothing of it is kept: a name cut short could be another's).
    static func readWholeString(_ m: OpaquePointer, atMost: Int) -> (text: String, tooLong: Bool)? {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(m, Character("s").asCChar, &value) > 0, let value else { return nil }
        let length = strnlen(value, atMost + 1)
        guard length <= atMost else { return ("", true) }
        return (String(cString: value), false)
    }

    /// An array of strings (`as`), at most `most` of at most `limit` bytes each (nil
    /// for more, or a longer one).
    static func readStrings(_ m: OpaquePointer, most: Int, limit: Int) -> [String]? {
        guard sd_bus_message_enter_container(m, Character("a").asCChar, "s") > 0 else { return nil }
        var strings: [String] = []
        while true {
            var value: UnsafePointer<CChar>?
            let rc = sd_bus_message_read_basic(m, Character("s").asCChar, &value)
            guard rc > 0, let value else { break }
            guard strings.count < most, strnlen(value, limit + 1) <= limit else { return nil }
            strings.append(String(cString: value))
        }
        return sd_bus_message_exit_container(m) >= 0 ? strings : nil
    }

    /// An array of bytes (`ay`), copied.
    static func readBytes(_ m: OpaquePointer) -> [UInt8]? {
        var pointer: UnsafeRawPointer?
        var size = 0
        guard sd_bus_message_read_array(m, Character("y").asCChar, &pointer, &size) >= 0 else { return nil }
        guard let pointer, size > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: size))
    }

    static func readObjectPath(_ m: OpaquePointer) -> String? {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(m, Character("o").asCChar, &value) > 0, let value else { return nil }
        return String(cString: value)
    }

    static func readUInt32(_ m: OpaquePointer) -> UInt32? {
        var value: UInt32 = 0
        return sd_bus_message_read_basic(m, Character("u").asCChar, &value) > 0 ? value : nil
    }

    static func readInt32(_ m: OpaquePointer) -> Int32? {
        var value: Int32 = 0
        return sd_bus_message_read_basic(m, Character("i").asCChar, &value) > 0 ? value : nil
    }

    static func readBool(_ m: OpaquePointer) -> Bool? {
        var value: Int32 = 0
        return sd_bus_message_read_basic(m, Character("b").asCChar, &value) > 0 ? value != 0 : nil
    }

    /// NameOwnerChanged for `name`: its new owner, empty when it went away; nil for
    /// another name.
    static func newOwner(_ message: OpaquePointer, of name: String) -> String? {
        guard let changed = readString(message), let _ = readString(message), let new = readString(message),
              changed == name else { return nil }
        return new
    }

    /// A string a peer sent, as one printable line of at most `limit` characters (see
    /// `printable`): a peer may send megabytes, terminal escapes and newlines. Only the
    /// first `limit` × 4 bytes are read.
    static func peerString(_ text: UnsafePointer<CChar>, limit: Int = 256) -> String {
        let length = strnlen(text, limit * 4 + 1), cut = length > limit * 4
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        let shown = printable(String(decoding: UnsafeBufferPointer(start: bytes, count: min(length, limit * 4)), as: UTF8.self), limit: limit)
        return cut && !shown.hasSuffix("…") ? shown + "…" : shown
    }

    /// A value PropertiesChanged carried.
    enum Value: Equatable {
        case string(String), bool(Bool)
    }

    /// PropertiesChanged's interface, the values of the properties `wanted` names (with
    /// their type, "s" or "b") among those it carries, and the names it invalidated; nil
    /// when the message is not of its shape. The other entries are skipped.
    static func propertiesChanged(_ m: OpaquePointer, wanted: [String: String]) -> (interface: String, values: [String: Value], invalidated: [String])? {
        var interface: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(m, Character("s").asCChar, &interface) > 0, let interface,
              sd_bus_message_enter_container(m, Character("a").asCChar, "{sv}") > 0 else { return nil }
        var values: [String: Value] = [:]
        while sd_bus_message_enter_container(m, Character("e").asCChar, "sv") > 0 {
            var key: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(m, Character("s").asCChar, &key) > 0, let key else { return nil }
            let name = peerString(key, limit: 64)
            switch wanted[name] {
            case "s":
                var text: UnsafePointer<CChar>?
                guard sd_bus_message_enter_container(m, Character("v").asCChar, "s") > 0,
                      sd_bus_message_read_basic(m, Character("s").asCChar, &text) > 0, let text else { return nil }
                values[name] = .string(peerString(text))
                _ = sd_bus_message_exit_container(m)
            case "b":
                var flag: Int32 = 0
                guard sd_bus_message_enter_container(m, Character("v").asCChar, "b") > 0,
                      sd_bus_message_read_basic(m, Character("b").asCChar, &flag) > 0 else { return nil }
                values[name] = .bool(flag != 0)
                _ = sd_bus_message_exit_container(m)
            default:
                guard sd_bus_message_skip(m, "v") >= 0 else { return nil }
            }
            _ = sd_bus_message_exit_container(m)
        }
        _ = sd_bus_message_exit_container(m)
        var invalidated: [String] = []
        if sd_bus_message_enter_container(m, Character("a").asCChar, "s") > 0 {
            var name: UnsafePointer<CChar>?
            while sd_bus_message_read_basic(m, Character("s").asCChar, &name) > 0, let name {
                let text = peerString(name, limit: 64)
                if wanted[text] != nil { invalidated.append(text) }
            }
            _ = sd_bus_message_exit_container(m)
        }
        return (peerString(interface, limit: 256), values, invalidated)
    }

    /// A call's error reply, in words; nil for a method return.
    /// An error reply's D-Bus name (`org.freedesktop.DBus.Error.ServiceUnknown`, say).
    static func errorName(of reply: OpaquePointer) -> String? {
        guard sd_bus_message_is_method_error(reply, nil) > 0, let name = sd_bus_message_get_error(reply)?.pointee.name else { return nil }
        return peerString(name, limit: 128)
    }

    static func error(of reply: OpaquePointer) -> String? {
        guard sd_bus_message_is_method_error(reply, nil) > 0 else { return nil }
        guard let error = sd_bus_message_get_error(reply)?.pointee else { return "refused" }
        return (error.message ?? error.name).map { peerString($0, limit: 256) } ?? "refused"
    }
}
