import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage
import TouchCore

/// sd-bus's messages, wrapped once: made, addressed and sent, read and written argument by
/// argument, a call answered. Nothing else in gestured calls `sd_bus_*` (only this file,
/// SDBus.swift, BusConnection.swift and PendingCall.swift): each type's code is here.
/// What each message carries is written and read with these in three files alone:
/// gestured's own messages between the service, the agents and the reporters
/// (AgentProtocol.swift), the control interface's values (ControlMessages.swift), and
/// the other services' (PeerMessages.swift).
/// Reading a message: its next argument, nil when it is of another type or none is
/// left. Strings a peer wrote come bounded and printable (`peerString`); object paths,
/// which sd-bus has checked, come whole.
extension SDBus {
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

    /// A string argument of at most `atMost` bytes, copied; nil inside for a longer one,
    /// which is not read past its bound.
    static func readBoundedText(_ m: OpaquePointer, atMost: Int) -> String?? {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(m, Character("s").asCChar, &value) > 0, let value else { return nil }
        guard strnlen(value, atMost + 1) <= atMost else { return .some(nil) }
        return String(cString: value)
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

    /// An array of doubles (`ad`), copied: nil for more than `most`.
    static func readDoubles(_ m: OpaquePointer, most: Int) -> [Double]? {
        var pointer: UnsafeRawPointer?
        var size = 0
        guard sd_bus_message_read_array(m, Character("d").asCChar, &pointer, &size) >= 0 else { return nil }
        guard let pointer, size > 0 else { return [] }
        let count = size / MemoryLayout<Double>.size
        guard count <= most else { return nil }
        return (0..<count).map { pointer.loadUnaligned(fromByteOffset: $0 * MemoryLayout<Double>.size, as: Double.self) }
    }

    /// An array of bytes (`ay`) and its size: copied when at most `atMost` bytes, else
    /// only measured.
    static func readBoundedBytes(_ m: OpaquePointer, atMost: Int) -> (bytes: [UInt8]?, size: Int)? {
        var pointer: UnsafeRawPointer?
        var size = 0
        guard sd_bus_message_read_array(m, Character("y").asCChar, &pointer, &size) >= 0 else { return nil }
        guard size <= atMost else { return (nil, size) }
        guard let pointer, size > 0 else { return ([], 0) }
        return (Array(UnsafeRawBufferPointer(start: pointer, count: size)), size)
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


    /// A string a peer sent, as one printable line of at most `limit` characters (see
    /// `printable`): a peer may send megabytes, terminal escapes and newlines. Only the
    /// first `limit` × 4 bytes are read.
    static func peerString(_ text: UnsafePointer<CChar>, limit: Int = 256) -> String {
        let length = strnlen(text, limit * 4 + 1), cut = length > limit * 4
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        let shown = printable(String(decoding: UnsafeBufferPointer(start: bytes, count: min(length, limit * 4)), as: UTF8.self), limit: limit)
        return cut && !shown.hasSuffix("…") ? shown + "…" : shown
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

    static func readDouble(_ m: OpaquePointer) -> Double? {
        var value = 0.0
        return sd_bus_message_read_basic(m, Character("d").asCChar, &value) > 0 ? value : nil
    }

    /// Enters a container (`type`: a, r, v, e; `contents`: its signature): false when the
    /// next argument is not one.
    static func enter(_ m: OpaquePointer, _ type: Character, _ contents: String) -> Bool {
        sd_bus_message_enter_container(m, type.asCChar, contents) > 0
    }

    @discardableResult
    static func exit(_ m: OpaquePointer) -> Bool { sd_bus_message_exit_container(m) >= 0 }

    static func atEnd(_ m: OpaquePointer) -> Bool { sd_bus_message_at_end(m, 0) != 0 }

    /// Skips the next arguments of these types.
    static func skip(_ m: OpaquePointer, _ types: String) -> Bool { sd_bus_message_skip(m, types) >= 0 }

    // MARK: Writing a message: each false when it cannot (out of memory, a wrong signature).

    static func append(_ m: OpaquePointer, _ s: String) -> Bool {
        s.withCString { sd_bus_message_append_basic(m, Character("s").asCChar, $0) >= 0 }
    }

    static func append(_ m: OpaquePointer, _ value: UInt32) -> Bool {
        var value = value
        return sd_bus_message_append_basic(m, Character("u").asCChar, &value) >= 0
    }

    static func append(_ m: OpaquePointer, _ value: Int32) -> Bool {
        var value = value
        return sd_bus_message_append_basic(m, Character("i").asCChar, &value) >= 0
    }

    static func append(_ m: OpaquePointer, _ value: UInt64) -> Bool {
        var value = value
        return sd_bus_message_append_basic(m, Character("t").asCChar, &value) >= 0
    }

    static func append(_ m: OpaquePointer, _ value: Bool) -> Bool {
        var value: Int32 = value ? 1 : 0
        return sd_bus_message_append_basic(m, Character("b").asCChar, &value) >= 0
    }

    static func append(_ m: OpaquePointer, _ value: Double) -> Bool {
        var value = value
        return sd_bus_message_append_basic(m, Character("d").asCChar, &value) >= 0
    }

    /// An array of bytes (`ay`).
    static func append(_ m: OpaquePointer, bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { sd_bus_message_append_array(m, Character("y").asCChar, $0.baseAddress, $0.count) >= 0 }
    }

    /// An array of strings (`as`).
    static func append(_ m: OpaquePointer, strings: [String]) -> Bool {
        container(m, "a", "s") { strings.allSatisfy { append(m, $0) } }
    }

    /// A container (`type`: a, r, v, e; `contents`: its signature) holding what `body` appends.
    static func container(_ m: OpaquePointer, _ type: Character, _ contents: String, _ body: () -> Bool) -> Bool {
        sd_bus_message_open_container(m, type.asCChar, contents) >= 0 && body() && sd_bus_message_close_container(m) >= 0
    }

    /// One `{sv}` entry: the key, then the value in a variant of `signature`.
    static func entry(_ m: OpaquePointer, _ key: String, _ signature: String, _ value: () -> Bool) -> Bool {
        container(m, "e", "sv") { append(m, key) && container(m, "v", signature, value) }
    }

    // MARK: A message's header

    /// Who sent it (a unique name), "" when it does not say.
    static func sender(_ m: OpaquePointer) -> String { sd_bus_message_get_sender(m).map { String(cString: $0) } ?? "" }

    static func member(_ m: OpaquePointer) -> String { sd_bus_message_get_member(m).map { String(cString: $0) } ?? "" }

    static func path(_ m: OpaquePointer) -> String? { sd_bus_message_get_path(m).map { String(cString: $0) } }

    /// Whether it calls this method (any member of the interface, with nil).
    static func isCall(_ m: OpaquePointer, _ interface: String, _ member: String?) -> Bool {
        sd_bus_message_is_method_call(m, interface, member) > 0
    }

    // MARK: Making and sending

    /// A signal to send (unref it once sent); nil when it cannot be made.
    static func newSignal(_ bus: OpaquePointer, _ path: String, _ interface: String, _ member: String) -> OpaquePointer? {
        var message: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &message, path, interface, member) >= 0 else { return nil }
        return message
    }

    /// A method call to send (unref it once sent); nil when it cannot be made.
    static func newCall(_ bus: OpaquePointer, _ destination: String, _ path: String, _ interface: String, _ member: String) -> OpaquePointer? {
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &message, destination, path, interface, member) >= 0 else { return nil }
        return message
    }

    /// Addressed to one connection (a signal that only it receives).
    static func address(_ m: OpaquePointer, to destination: String) -> Bool { sd_bus_message_set_destination(m, destination) >= 0 }

    static func ref(_ m: OpaquePointer) { sd_bus_message_ref(m) }
    static func unref(_ m: OpaquePointer) { sd_bus_message_unref(m) }

    /// Queued, and written as far as the socket takes it now; the error when it cannot be.
    static func send(_ bus: OpaquePointer, _ m: OpaquePointer) -> Errno? {
        let rc = sd_bus_send(bus, m, nil)
        return rc < 0 ? Errno(rawValue: -rc) : nil
    }

    /// Messages sd-bus holds unwritten; nil when it cannot say.
    static func queuedWrites(_ bus: OpaquePointer) -> UInt64? {
        var queued: UInt64 = 0
        return sd_bus_get_n_queued_write(bus, &queued) >= 0 ? queued : nil
    }

    /// Waits for the bus at most `microseconds` (a stop's last writes, never the loop).
    static func wait(_ bus: OpaquePointer, microseconds: UInt64) { _ = sd_bus_wait(bus, microseconds) }

    /// An object path below `prefix` for an id of any characters (sd-bus escapes them).
    static func path(under prefix: String, for id: String) -> String? {
        var encoded: UnsafeMutablePointer<CChar>?
        guard sd_bus_path_encode(prefix, id, &encoded) >= 0, let encoded else { return nil }
        defer { free(encoded) }
        return String(cString: encoded)
    }

    // MARK: Answering a call

    /// Where a method handler (a vtable's) sets its error.
    typealias ErrorOut = UnsafeMutablePointer<sd_bus_error>?

    /// A method handler's error: its return value.
    static func fail(_ out: ErrorOut, _ name: String, _ message: String) -> Int32 { sd_bus_error_set(out, name, message) }

    /// The empty answer.
    @discardableResult
    static func answer(_ call: OpaquePointer) -> Int32 { gestured_bus_reply_empty(call) }

    /// An error answer.
    static func answer(_ call: OpaquePointer, error name: String, _ message: String) {
        name.withCString { name in
            message.withCString { text in
                var error = sd_bus_error(name: name, message: text, _need_free: 0)
                _ = sd_bus_reply_method_error(call, &error)
            }
        }
    }

    /// What answering a call takes, and nothing of its arguments: a call made anew with
    /// its sender, serial, object, member and whether it wants an answer, for an answer
    /// later (to unref). Holding this instead of the call lets its arguments go at once.
    static func answerable(_ call: OpaquePointer, on bus: OpaquePointer) -> OpaquePointer? {
        var cookie: UInt64 = 0
        guard sd_bus_message_get_cookie(call, &cookie) >= 0, let sender = sd_bus_message_get_sender(call),
              let path = sd_bus_message_get_path(call), let member = sd_bus_message_get_member(call) else { return nil }
        var stub: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &stub, nil, path, sd_bus_message_get_interface(call), member) >= 0, let stub else { return nil }
        guard sd_bus_message_set_sender(stub, sender) >= 0,
              sd_bus_message_set_expect_reply(stub, sd_bus_message_get_expect_reply(call) > 0 ? 1 : 0) >= 0,
              sd_bus_message_seal(stub, cookie, 0) >= 0 else {
            sd_bus_message_unref(stub)
            return nil
        }
        return stub
    }

    /// Runs a method handler on a call held back, and answers what it failed with (an
    /// answer it gave itself stands).
    static func handle(_ call: OpaquePointer, _ handler: (OpaquePointer, ErrorOut) -> Int32) {
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&error) }
        let rc = handler(call, &error)
        guard rc < 0 else { return }
        if sd_bus_error_is_set(&error) != 0 { _ = sd_bus_reply_method_error(call, &error) } else { _ = sd_bus_reply_method_errno(call, rc, nil) }
    }
}
