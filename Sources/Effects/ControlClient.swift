import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Gestures
import SystemPackage

/// The running daemon's control interface, read by `gestured status`: a client that may
/// wait (it is no loop), for a few seconds at most. Any process may own the name on a
/// session bus: its strings are made printable and bounded (`SDBus.peerString`).
public enum ControlClient {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The properties from the daemon on `kind`'s bus.
    public static func read(_ kind: BusService.Kind) throws(Failure) -> ControlProperties {
        let bus: OpaquePointer
        switch SDBus.openWaiting(kind) {
        case .success(let opened): bus = opened
        case .failure(let error): throw Failure(description: "cannot connect to the \(kind) bus: \(error)")
        }
        defer { SDBus.closeWaiting(bus) }
        let rotation = Int(try get(bus, "Rotation", "u", readUnsigned))
        return ControlProperties(
            mode: try get(bus, "Mode", "s", readString),
            modes: try get(bus, "Modes", "as", readStrings),
            paused: try get(bus, "Paused", "b", readBool),
            locked: try get(bus, "Locked", "b", readBool),
            // A gestured from before TouchLocked: none.
            touchLocked: (try? get(bus, "TouchLocked", "b", readBool)) ?? false,
            gestures: try get(bus, "Gestures", "a(ssas)") { (m) throws(Failure) in
                try readArray(m, "(ssas)") { (m) throws(Failure) in
                    ControlProperties.Gesture(name: try readString(m), type: try readString(m), modes: try readStrings(m))
                }
            },
            devices: try devices(bus, display: rotation),
            rotation: rotation,
            // A gestured from before App, or a stand-in without it: none known.
            app: (try? get(bus, "App", "(ssss)", readApp)) ?? nil,
            // The user service's, or a gestured from before Session: none.
            session: (try? get(bus, "Session", "(subus)", readSession)) ?? nil)
    }

    /// Pauses the daemon on `kind`'s bus for `seconds` (`Pause`), or ends its pause (`Resume`, nil).
    public static func pause(_ kind: BusService.Kind, seconds: UInt32?) throws(Failure) {
        let bus: OpaquePointer
        switch SDBus.openWaiting(kind) {
        case .success(let opened): bus = opened
        case .failure(let error): throw Failure(description: "cannot connect to the \(kind) bus: \(error)")
        }
        defer { SDBus.closeWaiting(bus) }
        let member = seconds == nil ? "Resume" : "Pause"
        let answer = SDBus.callWaiting(bus, of: BusService.name, at: BusService.path, BusService.interface, member) { message in
            seconds.map { SDBus.append(message, $0) } ?? true
        }
        if case .failure(let why) = answer { throw Failure(description: "cannot call \(member): \(why.words)") }
    }

    /// The App property: its source, app id, WM_CLASS class and instance; nil when all
    /// names are empty (none known).
    private static func readApp(_ m: OpaquePointer) throws(Failure) -> AppInFront? {
        guard SDBus.enter(m, "r", "ssss") else { throw Failure(description: "an unreadable answer") }
        let source = try readString(m), appID = try readString(m), windowClass = try readString(m), instance = try readString(m)
        SDBus.exit(m)
        return AppReport(source: source, appID: appID, windowClass: windowClass, instance: instance).app(source: source)
    }

    /// The Session property; nil when its id is empty (none known).
    private static func readSession(_ m: OpaquePointer) throws(Failure) -> ControlProperties.Session? {
        guard SDBus.enter(m, "r", "subus") else { throw Failure(description: "an unreadable answer") }
        let id = try readString(m), uid = try readUnsigned(m), agent = try readBool(m), count = try readUnsigned(m), file = try readString(m)
        SDBus.exit(m)
        return id.isEmpty ? nil : .init(id: id, uid: uid, agent: agent, userGestures: Int(count), file: file)
    }

    /// The devices, each with its own rotation from its object (the display's for one
    /// gone between the two reads).
    private static func devices(_ bus: OpaquePointer, display: Int) throws(Failure) -> [ControlProperties.Device] {
        let listed = try get(bus, "Devices", "a(ssb)") { (m) throws(Failure) in
            try readArray(m, "(ssb)") { (m) throws(Failure) in (node: try readString(m), name: try readString(m), isolated: try readBool(m)) }
        }
        return listed.map { device in
            let path = BusService.devicePath(device.node)
            let rotation = try? get(bus, "Rotation", "u", at: path, interface: BusService.deviceInterface, readUnsigned)
            // A gestured from before Screen: not said.
            let screen = (try? get(bus, "Screen", "s", at: path, interface: BusService.deviceInterface, readString)) ?? ""
            return ControlProperties.Device(node: device.node, name: device.name, isolated: device.isolated,
                                            rotation: rotation.map(Int.init) ?? display, screen: screen)
        }
    }

    private static func get<T>(_ bus: OpaquePointer, _ property: String, _ type: String,
                               at path: String = BusService.path, interface: String = BusService.interface,
                               _ parse: (OpaquePointer) throws(Failure) -> T) throws(Failure) -> T {
        let reply: OpaquePointer
        switch SDBus.property(bus, of: BusService.name, at: path, interface, property, type: type) {
        case .success(let answer): reply = answer
        case .failure(let why): throw Failure(description: "cannot read \(property): \(why.words)")
        }
        defer { SDBus.unref(reply) }
        return try parse(reply)
    }

    // Whoever owns the name answers: what reaches the terminal is printable text.
    private static func readString(_ m: OpaquePointer) throws(Failure) -> String {
        guard let value = SDBus.readString(m) else { throw Failure(description: "an unreadable answer") }
        return value
    }

    private static func readBool(_ m: OpaquePointer) throws(Failure) -> Bool {
        guard let value = SDBus.readBool(m) else { throw Failure(description: "an unreadable answer") }
        return value
    }

    private static func readUnsigned(_ m: OpaquePointer) throws(Failure) -> UInt32 {
        guard let value = SDBus.readUInt32(m) else { throw Failure(description: "an unreadable answer") }
        return value
    }

    private static func readStrings(_ m: OpaquePointer) throws(Failure) -> [String] {
        guard SDBus.enter(m, "a", "s") else { throw Failure(description: "an unreadable answer") }
        var strings: [String] = []
        while !SDBus.atEnd(m) { strings.append(try readString(m)) }
        SDBus.exit(m)
        return strings
    }

    /// An array of structs of `signature` (with its parentheses).
    private static func readArray<T>(_ m: OpaquePointer, _ signature: String,
                                     _ element: (OpaquePointer) throws(Failure) -> T) throws(Failure) -> [T] {
        guard SDBus.enter(m, "a", signature) else { throw Failure(description: "an unreadable answer") }
        var all: [T] = []
        let inner = String(signature.dropFirst().dropLast())
        while SDBus.enter(m, "r", inner) {
            all.append(try element(m))
            SDBus.exit(m)
        }
        SDBus.exit(m)
        return all
    }
}
