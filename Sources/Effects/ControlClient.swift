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
        typealias Reading = ControlProperties.Reading
        let rotation = Int(try get(bus, "Rotation", "u", Reading.unsigned))
        return ControlProperties(
            mode: try get(bus, "Mode", "s", Reading.string),
            modes: try get(bus, "Modes", "as", Reading.strings),
            paused: try get(bus, "Paused", "b", Reading.flag),
            locked: try get(bus, "Locked", "b", Reading.flag),
            // A gestured from before TouchLocked: none.
            touchLocked: (try? get(bus, "TouchLocked", "b", Reading.flag)) ?? false,
            gestures: try get(bus, "Gestures", "a(ssas)", Reading.gestures),
            devices: try devices(bus, display: rotation),
            rotation: rotation,
            // A gestured from before App, or a stand-in without it: none known.
            app: (try? get(bus, "App", "(ssss)", Reading.app)) ?? nil,
            // The user service's, or a gestured from before Session: none.
            session: (try? get(bus, "Session", "(subus)", Reading.session)) ?? nil)
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
        let answer = SDBus.callWaiting(bus, of: BusService.name, at: BusService.path, BusService.interface, member) { call in
            seconds.map { ControlArguments.write(seconds: $0, into: call) } ?? true
        }
        if case .failure(let why) = answer { throw Failure(description: "cannot call \(member): \(why.words)") }
    }

    /// The devices, each with its own rotation from its object (the display's for one
    /// gone between the two reads).
    private static func devices(_ bus: OpaquePointer, display: Int) throws(Failure) -> [ControlProperties.Device] {
        let listed = try get(bus, "Devices", "a(ssb)", ControlProperties.Reading.devices)
        return listed.map { device in
            let path = BusService.devicePath(device.node)
            let rotation = try? get(bus, "Rotation", "u", at: path, interface: BusService.deviceInterface, ControlProperties.Reading.unsigned)
            // A gestured from before Screen: not said.
            let screen = (try? get(bus, "Screen", "s", at: path, interface: BusService.deviceInterface, ControlProperties.Reading.string)) ?? ""
            return ControlProperties.Device(node: device.node, name: device.name, isolated: device.isolated,
                                            rotation: rotation.map(Int.init) ?? display, screen: screen)
        }
    }

    /// A property's value, read by `parse`; its error, or an answer not of its shape, thrown.
    private static func get<T>(_ bus: OpaquePointer, _ property: String, _ type: String,
                               at path: String = BusService.path, interface: String = BusService.interface,
                               _ parse: (OpaquePointer) -> T?) throws(Failure) -> T {
        let reply: OpaquePointer
        switch SDBus.property(bus, of: BusService.name, at: path, interface, property, type: type) {
        case .success(let answer): reply = answer
        case .failure(let why): throw Failure(description: "cannot read \(property): \(why.words)")
        }
        defer { SDBus.unref(reply) }
        guard let value = parse(reply) else { throw Failure(description: "an unreadable answer to \(property)") }
        return value
    }
}
