import CSystemd
import Gestures
import Pipeline
import TouchCore

/// The control interface's values as they travel, here alone: the arguments of its
/// methods, each property of org.gestured.Gestured1 and of a device's object as the
/// service writes it, and as `gestured status` and monitor's follower read it (any
/// process may own the name on a session bus: strings come bounded and printable, a
/// rotation is checked by who uses it). The signatures are the C tables' (shim.h).
enum ControlArguments {
    /// SetMode's mode.
    static func mode(_ call: OpaquePointer) -> String? { SDBus.readString(call) }

    /// Pause's seconds, Rotation's degrees (written to the service or a device).
    static func unsigned(_ message: OpaquePointer) -> UInt32? { SDBus.readUInt32(message) }

    /// Pause's seconds, written by `gestured pause`.
    static func write(seconds: UInt32, into call: OpaquePointer) -> Bool { SDBus.append(call, seconds) }
}

extension ControlProperties {
    /// A property's value into a getter's reply; false when it could not be written.
    /// Idle and LastTouch are the caller's, as they are now (`idle`, `lastTouch`).
    func write(_ property: ControlProperty, idle: Bool, lastTouch: UInt64, into reply: OpaquePointer) -> Bool {
        switch property {
        case .idle: return SDBus.append(reply, idle)
        case .lastTouch: return SDBus.append(reply, lastTouch)
        case .mode: return SDBus.append(reply, mode)
        case .modes: return SDBus.append(reply, strings: modes)
        case .paused: return SDBus.append(reply, paused)
        case .locked: return SDBus.append(reply, locked)
        case .touchLocked: return SDBus.append(reply, touchLocked)
        case .rotation: return SDBus.append(reply, UInt32(clamping: rotation))
        case .gestures:
            return SDBus.container(reply, "a", "(ssas)") {
                gestures.allSatisfy { g in
                    SDBus.container(reply, "r", "ssas") { SDBus.append(reply, g.name) && SDBus.append(reply, g.type) && SDBus.append(reply, strings: g.modes) }
                }
            }
        case .app:
            return SDBus.container(reply, "r", "ssss") {
                SDBus.append(reply, app?.source ?? "") && SDBus.append(reply, app?.appID ?? "")
                    && SDBus.append(reply, app?.windowClass ?? "") && SDBus.append(reply, app?.instance ?? "")
            }
        case .session:
            return SDBus.container(reply, "r", "subus") {
                SDBus.append(reply, session?.id ?? "") && SDBus.append(reply, session?.uid ?? 0) && SDBus.append(reply, session?.agent == true)
                    && SDBus.append(reply, UInt32(clamping: session?.userGestures ?? 0)) && SDBus.append(reply, session?.file ?? "")
            }
        case .devices:
            return SDBus.container(reply, "a", "(ssb)") {
                devices.allSatisfy { d in
                    SDBus.container(reply, "r", "ssb") { SDBus.append(reply, d.node) && SDBus.append(reply, d.name) && SDBus.append(reply, d.isolated) }
                }
            }
        }
    }

    /// What `gestured status` reads of each property, from a Get's reply; nil when it is
    /// not the property's shape.
    enum Reading {
        static func string(_ m: OpaquePointer) -> String? { SDBus.readString(m) }
        static func flag(_ m: OpaquePointer) -> Bool? { SDBus.readBool(m) }
        static func unsigned(_ m: OpaquePointer) -> UInt32? { SDBus.readUInt32(m) }

        static func strings(_ m: OpaquePointer) -> [String]? {
            guard SDBus.enter(m, "a", "s") else { return nil }
            var strings: [String] = []
            while !SDBus.atEnd(m) {
                guard let string = SDBus.readString(m) else { return nil }
                strings.append(string)
            }
            SDBus.exit(m)
            return strings
        }

        static func gestures(_ m: OpaquePointer) -> [Gesture]? {
            array(m, "ssas") { m in
                guard let name = string(m), let type = string(m), let modes = strings(m) else { return nil }
                return Gesture(name: name, type: type, modes: modes)
            }
        }

        /// Devices' nodes, names and isolation (their rotation and screen are their objects').
        static func devices(_ m: OpaquePointer) -> [(node: String, name: String, isolated: Bool)]? {
            array(m, "ssb") { m in
                guard let node = string(m), let name = string(m), let isolated = flag(m) else { return nil }
                return (node, name, isolated)
            }
        }

        /// App: its source, app id, WM_CLASS class and instance; nil inside when all names
        /// are empty (none known).
        static func app(_ m: OpaquePointer) -> AppInFront?? {
            guard SDBus.enter(m, "r", "ssss"), let source = string(m), let appID = string(m), let windowClass = string(m),
                  let instance = string(m) else { return nil }
            SDBus.exit(m)
            return .some(AppReport(source: source, appID: appID, windowClass: windowClass, instance: instance).app(source: source))
        }

        /// Session; nil inside when its id is empty (none known).
        static func session(_ m: OpaquePointer) -> Session?? {
            guard SDBus.enter(m, "r", "subus"), let id = string(m), let uid = unsigned(m), let agent = flag(m), let count = unsigned(m),
                  let file = string(m) else { return nil }
            SDBus.exit(m)
            return .some(id.isEmpty ? nil : Session(id: id, uid: uid, agent: agent, userGestures: Int(count), file: file))
        }

        /// An array of structs of `fields`, each read by `element`.
        private static func array<T>(_ m: OpaquePointer, _ fields: String, _ element: (OpaquePointer) -> T?) -> [T]? {
            guard SDBus.enter(m, "a", "(\(fields))") else { return nil }
            var all: [T] = []
            while SDBus.enter(m, "r", fields) {
                guard let one = element(m) else { return nil }
                all.append(one)
                SDBus.exit(m)
            }
            SDBus.exit(m)
            return all
        }
    }
}

extension ControlProperties.Device {
    /// A device object's property into a getter's reply; nil for no such property.
    func write(_ property: String, into reply: OpaquePointer) -> Bool? {
        switch property {
        case "Node": SDBus.append(reply, node)
        case "Name": SDBus.append(reply, name)
        case "Isolated": SDBus.append(reply, isolated)
        case "Rotation": SDBus.append(reply, UInt32(clamping: rotation))
        case "Screen": SDBus.append(reply, screen)
        default: nil
        }
    }
}

// MARK: Monitor's follower

extension ServiceFollower.Heard {
    /// Mode, Paused, Locked, TouchLocked and Rotation from an `a{sv}` (GetAll's answer,
    /// PropertiesChanged's); the other entries are skipped.
    static func read(_ m: OpaquePointer) -> Self? {
        guard SDBus.enter(m, "a", "{sv}") else { return nil }
        var heard = Self()
        while SDBus.enter(m, "e", "sv") {
            guard let key = SDBus.readString(m) else { return nil }
            switch key {
            case "Mode":
                guard SDBus.enter(m, "v", "s"), let mode = SDBus.readString(m, limit: 64) else { return nil }
                heard.mode = mode
                SDBus.exit(m)
            case "Rotation":
                guard SDBus.enter(m, "v", "u"), let degrees = SDBus.readUInt32(m) else { return nil }
                // Only a rotation the service could be in: another is no news.
                heard.rotation = QuarterTurn(degrees: degrees)
                SDBus.exit(m)
            case "Paused", "Locked", "TouchLocked":
                guard SDBus.enter(m, "v", "b"), let value = SDBus.readBool(m) else { return nil }
                switch key {
                case "Paused": heard.paused = value
                case "Locked": heard.locked = value
                default: heard.touchLocked = value
                }
                SDBus.exit(m)
            default:
                guard SDBus.skip(m, "v") else { return nil }
            }
            SDBus.exit(m)
        }
        SDBus.exit(m)
        return heard
    }

    /// PropertiesChanged of `interface` (the service's, a device's): what it says; nil
    /// for another interface's, or one that is not of its shape.
    static func changed(_ message: OpaquePointer, of interface: String) -> Self? {
        SDBus.readString(message) == interface ? read(message) : nil
    }
}

extension BusQuestion where Answer == ServiceFollower.Heard {
    /// GetAll on the running service.
    static var serviceProperties: Self {
        Self(destination: BusService.name, path: BusService.path, interface: "org.freedesktop.DBus.Properties", member: "GetAll",
             write: { SDBus.append($0, BusService.interface) }, read: ServiceFollower.Heard.read)
    }
}

extension BusQuestion where Answer == UInt32 {
    /// A device object's Rotation.
    static func panelRotation(at path: String) -> Self {
        property(of: BusService.name, at: path, BusService.deviceInterface, "Rotation", "u") { SDBus.readUInt32($0) }
    }
}
