/// A method call to another service on the bus (dbus-daemon, logind, iio-sensor-proxy,
/// KWin, GNOME Shell, the notification server, a running gestured's properties), typed
/// once: where it goes, its arguments, and what its answer says. Every question gestured
/// asks of a peer is one of those below, and the peers' signals are read below too
/// (`PeerMessage`): no other file writes or reads their arguments. What a peer answers is
/// its word: strings come bounded and printable, numbers are checked by who uses them.
struct BusQuestion<Answer> {
    let destination: String
    let path: String
    let interface: String
    let member: String
    /// Its arguments, appended to the call; false when one could not be.
    let write: (OpaquePointer) -> Bool
    /// What a method return says; nil when it is not what this peer answers.
    let read: (OpaquePointer) -> Answer?

    /// The call (to unref), nil when it could not be made.
    func call(on bus: OpaquePointer) -> OpaquePointer? {
        guard let message = SDBus.newCall(bus, destination, path, interface, member) else { return nil }
        guard write(message) else {
            SDBus.unref(message)
            return nil
        }
        return message
    }

    /// What a reply says: nil for an error reply, or one this cannot read.
    func answer(_ reply: OpaquePointer) -> Answer? {
        SDBus.error(of: reply) == nil ? read(reply) : nil
    }

    /// Sent, its answer to `then` with the reply (an error too); false when it could not be
    /// sent. The call floats (the bus lets it go once answered, or with the connection).
    @discardableResult
    func ask(on bus: OpaquePointer, timeout: UInt64 = 0, _ then: @escaping (OpaquePointer, Answer?) -> Void) -> Bool {
        guard let message = call(on: bus) else { return false }
        defer { SDBus.unref(message) }
        return SDBus.call(bus, message, timeout: timeout, floating: true) { reply in then(reply, answer(reply)) } != nil
    }
}

// MARK: dbus-daemon

extension BusQuestion where Answer == String {
    /// GetNameOwner: the unique name owning `name`.
    static func owner(of name: String) -> Self {
        Self(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "GetNameOwner",
             write: { SDBus.append($0, name) }, read: { SDBus.readString($0) })
    }
}

extension BusQuestion where Answer == (uid: UInt32, pid: UInt32?) {
    /// GetConnectionCredentials' `a{sv}`: UnixUserID and ProcessID; nil without a user.
    static func credentials(of sender: String) -> Self {
        Self(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
             member: "GetConnectionCredentials", write: { SDBus.append($0, sender) }) { reply in
            guard SDBus.enter(reply, "a", "{sv}") else { return nil }
            var uid: UInt32?, pid: UInt32?
            while SDBus.enter(reply, "e", "sv") {
                guard let key = SDBus.readString(reply, limit: 64) else { return nil }
                switch key {
                case "UnixUserID", "ProcessID":
                    guard SDBus.enter(reply, "v", "u"), let value = SDBus.readUInt32(reply) else { return nil }
                    SDBus.exit(reply)
                    if key == "UnixUserID" { uid = value } else { pid = value }
                default:
                    guard SDBus.skip(reply, "v") else { return nil }
                }
                SDBus.exit(reply)
            }
            guard let uid else { return nil }
            return (uid, pid)
        }
    }
}

// MARK: logind

enum Logind {
    static let service = "org.freedesktop.login1"
    static let seatPath = "/org/freedesktop/login1/seat/seat0"
}

extension BusQuestion where Answer == String {
    /// GetSessionByPID: the session's object path.
    static func session(ofProcess pid: UInt32) -> Self {
        Self(destination: Logind.service, path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager",
             member: "GetSessionByPID", write: { SDBus.append($0, pid) }, read: { SDBus.readObjectPath($0) })
    }

    /// GetUser: the user's object path.
    static func user(_ uid: UInt32) -> Self {
        Self(destination: Logind.service, path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager",
             member: "GetUser", write: { SDBus.append($0, uid) }, read: { SDBus.readObjectPath($0) })
    }
}

extension BusQuestion {
    /// Properties.Get of `name`, its variant of `signature` read by `value`.
    static func property(of destination: String, at path: String, _ interface: String, _ name: String, _ signature: String,
                         _ value: @escaping (OpaquePointer) -> Answer?) -> Self {
        Self(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
             write: { SDBus.append($0, interface) && SDBus.append($0, name) }) { reply in
            SDBus.enter(reply, "v", signature) ? value(reply) : nil
        }
    }
}

extension BusQuestion where Answer == (id: String, path: String) {
    /// A seat's ActiveSession, a user's Display: `(so)`, the session's id and path ("/": none).
    static func logindSession(at path: String, _ interface: String, _ name: String) -> Self {
        property(of: Logind.service, at: path, interface, name, "(so)") { reply in
            guard SDBus.enter(reply, "r", "so"), let id = SDBus.readString(reply, limit: 64), let path = SDBus.readObjectPath(reply) else { return nil }
            return (id, path)
        }
    }
}

extension BusQuestion where Answer == Bool {
    /// A session's LockedHint or Active.
    static func sessionFlag(at path: String, _ name: String) -> Self {
        property(of: Logind.service, at: path, "org.freedesktop.login1.Session", name, "b") { SDBus.readBool($0) }
    }
}

extension BusQuestion where Answer == UInt32 {
    /// A session's User: `(uo)`, the uid.
    static func sessionUser(at path: String) -> Self {
        property(of: Logind.service, at: path, "org.freedesktop.login1.Session", "User", "(uo)") { reply in
            SDBus.enter(reply, "r", "uo") ? SDBus.readUInt32(reply) : nil
        }
    }
}

// MARK: iio-sensor-proxy

enum SensorProxy {
    static let service = "net.hadess.SensorProxy"
    static let path = "/net/hadess/SensorProxy"
    static let interface = "net.hadess.SensorProxy"
}

extension BusQuestion where Answer == Void {
    /// ClaimAccelerometer: its orientation is said from now on.
    static var claimAccelerometer: Self {
        Self(destination: SensorProxy.service, path: SensorProxy.path, interface: SensorProxy.interface, member: "ClaimAccelerometer",
             write: { _ in true }, read: { _ in () })
    }
}

extension BusQuestion where Answer == String {
    /// AccelerometerOrientation, as iio-sensor-proxy names it.
    static var accelerometerOrientation: Self {
        property(of: SensorProxy.service, at: SensorProxy.path, SensorProxy.interface, "AccelerometerOrientation", "s") {
            SDBus.readString($0, limit: 64)
        }
    }
}

// MARK: The desktops, the notification server

extension BusQuestion where Answer == Bool {
    /// KWin's isScriptLoaded.
    static func kwinScriptLoaded(_ plugin: String) -> Self {
        Self(destination: "org.kde.KWin", path: "/Scripting", interface: "org.kde.kwin.Scripting", member: "isScriptLoaded",
             write: { SDBus.append($0, plugin) }, read: { SDBus.readBool($0) })
    }
}

extension BusQuestion where Answer == Int32 {
    /// KWin's loadScript: the script's id (negative: not loaded).
    static func kwinLoadScript(_ file: String, as plugin: String) -> Self {
        Self(destination: "org.kde.KWin", path: "/Scripting", interface: "org.kde.kwin.Scripting", member: "loadScript",
             write: { SDBus.append($0, file) && SDBus.append($0, plugin) }, read: { SDBus.readInt32($0) })
    }
}

extension BusQuestion where Answer == Void {
    /// A loaded KWin script's run, at its object (`/Scripting/ScriptN`; Plasma 5: `/N`).
    static func kwinRunScript(at path: String) -> Self {
        Self(destination: "org.kde.KWin", path: path, interface: "org.kde.kwin.Script", member: "run", write: { _ in true }, read: { _ in () })
    }
}

extension BusQuestion where Answer == Double? {
    /// GNOME Shell's GetExtensionInfo: the extension's state (nil inside: it knows none of that name).
    static func gnomeExtensionState(_ uuid: String) -> Self {
        Self(destination: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell.Extensions", member: "GetExtensionInfo",
             write: { SDBus.append($0, uuid) }) { reply in
            guard let info = PeerMessage.readDictionary(reply, wanted: ["state": "d"]) else { return nil }
            guard case .double(let state)? = info["state"] else { return .some(nil) }
            return state
        }
    }
}

extension BusQuestion where Answer == UInt32 {
    /// Notify: app name, the notification it replaces (0: none), icon, summary, body, no
    /// actions nor hints, the server's timeout; the notification's id.
    static func notify(replacing id: UInt32, _ summary: String, _ body: String) -> Self {
        Self(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
             member: "Notify", write: { m in
                SDBus.append(m, "gestured") && SDBus.append(m, id) && SDBus.append(m, "input-touchscreen") && SDBus.append(m, summary)
                    && SDBus.append(m, body) && SDBus.append(m, strings: []) && SDBus.container(m, "a", "{sv}") { true } && SDBus.append(m, Int32(-1))
             }, read: { SDBus.readUInt32($0) })
    }
}

// MARK: Signals, and answers to what sd-bus asked

/// What the peers' other messages say, read here alone.
enum PeerMessage {
    /// NameOwnerChanged's name, NameAcquired's, NameLost's: their first argument.
    static func name(_ message: OpaquePointer) -> String? { SDBus.readString(message) }

    /// PrepareForSleep's argument: true before the machine sleeps, false once it woke.
    static func prepareForSleep(_ message: OpaquePointer) -> Bool? { SDBus.readBool(message) }

    /// RequestName's answer (1: the name is ours, 2: queued, 3: exists, 4: ours already).
    static func requestNameResult(_ reply: OpaquePointer) -> UInt32? { SDBus.readUInt32(reply) }

    /// NameOwnerChanged for `name`: its new owner, empty when it went away; nil for
    /// another name.
    static func newOwner(_ message: OpaquePointer, of name: String) -> String? {
        guard let changed = SDBus.readString(message), let _ = SDBus.readString(message), let new = SDBus.readString(message),
              changed == name else { return nil }
        return new
    }

    /// A value of an `a{sv}` argument (PropertiesChanged's, GetExtensionInfo's).
    enum Value: Equatable {
        case string(String), bool(Bool), double(Double)
    }

    /// PropertiesChanged's interface, the values of the properties `wanted` names (with
    /// their type, "s" or "b") among those it carries, and the names it invalidated; nil
    /// when the message is not of its shape. The other entries are skipped.
    static func propertiesChanged(_ m: OpaquePointer, wanted: [String: String]) -> (interface: String, values: [String: Value], invalidated: [String])? {
        guard let interface = SDBus.readString(m), let values = readDictionary(m, wanted: wanted) else { return nil }
        var invalidated: [String] = []
        if SDBus.enter(m, "a", "s") {
            while let name = SDBus.readString(m, limit: 64) {
                if wanted[name] != nil { invalidated.append(name) }
            }
            SDBus.exit(m)
        }
        return (interface, values, invalidated)
    }

    /// The entries of an `a{sv}` argument that `wanted` names, with their type ("s", "b"
    /// or "d"); the others skipped. Nil when the argument is no such array, or holds a
    /// wanted entry of another type.
    static func readDictionary(_ m: OpaquePointer, wanted: [String: String]) -> [String: Value]? {
        guard SDBus.enter(m, "a", "{sv}") else { return nil }
        var values: [String: Value] = [:]
        while SDBus.enter(m, "e", "sv") {
            guard let name = SDBus.readString(m, limit: 64) else { return nil }
            if let type = wanted[name] {
                guard SDBus.enter(m, "v", type) else { return nil }
                switch type {
                case "s":
                    guard let text = SDBus.readString(m) else { return nil }
                    values[name] = .string(text)
                case "b":
                    guard let flag = SDBus.readBool(m) else { return nil }
                    values[name] = .bool(flag)
                default:
                    guard let number = SDBus.readDouble(m) else { return nil }
                    values[name] = .double(number)
                }
                SDBus.exit(m)
            } else {
                guard SDBus.skip(m, "v") else { return nil }
            }
            SDBus.exit(m)
        }
        SDBus.exit(m)
        return values
    }
}
