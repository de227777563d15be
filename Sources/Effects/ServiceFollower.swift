import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Logging
import SystemPackage
import TouchCore

/// What the running service says of its mode, pause, lock and rotation (the display's and
/// each panel's), for `monitor`: it reads the properties when the service appears, then
/// follows their PropertiesChanged. Every call is asynchronous, on a connection of its own
/// the loop watches; without a service (or a bus) it stays quiet and monitor decides alone.
/// Whoever owns the name is not trusted: a mode is printable and bounded, a rotation
/// other than 0, 90, 180 or 270 is ignored.
public final class ServiceFollower {
    /// The values a message carried; nil for those it did not.
    public struct Heard: Equatable, Sendable {
        public var mode: String?
        public var paused: Bool?
        public var locked: Bool?
        public var rotation: QuarterTurn?
    }

    private let kind: BusService.Kind
    private let logger: Logger
    private var connection: BusConnection?
    /// Panels asked for their rotation, by the call's cookie: at most one call a panel.
    private var panelsAsked: [UInt64: String] = [:]
    public var onHeard: (Heard) -> Void = { _ in }
    /// The service answered (it started, or was there): the time to ask for each panel's rotation.
    public var onFound: () -> Void = {}
    /// A panel's object (its path) says the panel's rotation.
    public var onPanelRotation: (_ path: String, _ turn: QuarterTurn) -> Void = { _, _ in }
    public var onWatchChange: (_ old: BusService.Watch?, _ new: BusService.Watch?) -> Void = { _, _ in }

    public init(_ kind: BusService.Kind, logger: Logger) {
        self.kind = kind
        self.logger = logger
    }

    public func start() {
        let connection: BusConnection
        do { connection = try BusConnection(kind) } catch {
            return logger.info("monitor: no \(kind) bus (\(error)): the service's mode is not followed")
        }
        self.connection = connection
        connection.onWatchChange = { [unowned self] old, new in onWatchChange(old, new) }
        let panelRule = "type='signal',sender='\(BusService.name)',interface='org.freedesktop.DBus.Properties',"
            + "member='PropertiesChanged',path_namespace='\(BusService.devicesPath)'"
        do throws(Errno) {
            try connection.matchSignal(sender: BusService.name, path: BusService.path, interface: "org.freedesktop.DBus.Properties",
                                       member: "PropertiesChanged") { [unowned self] in propertiesChanged($0) }
            try connection.followOwner(of: BusService.name) { [unowned self] in ownerChanged($0) }
            try connection.match(rule: panelRule) { [unowned self] in panelChanged($0) }
        } catch {
            return logger.warning("monitor: cannot follow the service's properties on the \(kind) bus (\(error))")
        }
        readAll()
        connection.updateWatch()
    }

    public func process() {
        guard let connection, let error = connection.process() else { return }
        logger.info("monitor: the \(kind) bus went away (\(error)): the service's mode is no longer followed")
        self.connection = nil
        panelsAsked = [:]
    }

    public var nextDeadline: Int64? { connection?.nextDeadline }

    /// GetAll on the service; an error (no service) says nothing.
    private func readAll() {
        guard let connection, let bus = connection.bus else { return }
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &message, BusService.name, BusService.path, "org.freedesktop.DBus.Properties",
                                             "GetAll") >= 0, let message else { return }
        defer { sd_bus_message_unref(message) }
        guard BusService.interface.withCString({ sd_bus_message_append_basic(message, Character("s").asCChar, $0) }) >= 0 else { return }
        // Floating: the bus owns the call and drops it with the connection.
        _ = sd_bus_call_async(bus, nil, message, { reply, userdata, _ in
            guard let reply, let userdata else { return 0 }
            let follower = Unmanaged<ServiceFollower>.fromOpaque(userdata).takeUnretainedValue()
            if SDBus.error(of: reply) == nil, let heard = ServiceFollower.values(reply) {
                follower.logger.info("monitor: following the service on the \(follower.kind) bus")
                follower.onHeard(heard)
                follower.onFound()
            }
            return 0
        }, Unmanaged.passUnretained(self).toOpaque(), 0)
        connection.updateWatch()
    }

    /// Asks the panel's object for its rotation; an error (no such panel there) says nothing.
    public func readRotation(ofPanel path: String) {
        guard let connection, let bus = connection.bus, !panelsAsked.values.contains(path) else { return }
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &message, BusService.name, path, "org.freedesktop.DBus.Properties", "Get") >= 0,
              let message else { return }
        defer { sd_bus_message_unref(message) }
        let ok = [BusService.deviceInterface, "Rotation"].allSatisfy { argument in
            argument.withCString { sd_bus_message_append_basic(message, Character("s").asCChar, $0) } >= 0
        }
        guard ok, sd_bus_call_async(bus, nil, message, { reply, userdata, _ in
            guard let reply, let userdata else { return 0 }
            Unmanaged<ServiceFollower>.fromOpaque(userdata).takeUnretainedValue().panelAnswered(reply)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque(), 0) >= 0 else { return }
        // The answer names the call by its cookie, not the object: kept until it comes.
        var cookie: UInt64 = 0
        if sd_bus_message_get_cookie(message, &cookie) >= 0 { panelsAsked[cookie] = path }
        connection.updateWatch()
    }

    private func panelAnswered(_ reply: OpaquePointer) {
        var cookie: UInt64 = 0
        guard sd_bus_message_get_reply_cookie(reply, &cookie) >= 0, let path = panelsAsked.removeValue(forKey: cookie),
              SDBus.error(of: reply) == nil else { return }
        guard sd_bus_message_enter_container(reply, Character("v").asCChar, "u") > 0,
              let degrees = SDBus.readUInt32(reply), let turn = QuarterTurn(degrees: degrees) else { return }
        onPanelRotation(path, turn)
    }

    /// PropertiesChanged of a panel's object.
    private func panelChanged(_ message: OpaquePointer) {
        guard let path = sd_bus_message_get_path(message).map({ String(cString: $0) }),
              SDBus.readString(message) == BusService.deviceInterface,
              let degrees = Self.values(message)?.rotation else { return }
        onPanelRotation(path, degrees)
    }

    private func propertiesChanged(_ message: OpaquePointer) {
        guard SDBus.readString(message) == BusService.interface, let heard = Self.values(message) else { return }
        onHeard(heard)
    }

    /// The service started (again): what it says now.
    private func ownerChanged(_ owner: String) {
        guard !owner.isEmpty else { return }
        readAll()
    }

    /// Mode, Paused, Locked and Rotation from an `a{sv}`; the other entries are skipped.
    static func values(_ m: OpaquePointer) -> Heard? {
        guard sd_bus_message_enter_container(m, Character("a").asCChar, "{sv}") > 0 else { return nil }
        var heard = Heard()
        while sd_bus_message_enter_container(m, Character("e").asCChar, "sv") > 0 {
            guard let key = SDBus.readString(m) else { return nil }
            switch key {
            case "Mode":
                guard sd_bus_message_enter_container(m, Character("v").asCChar, "s") > 0,
                      let mode = SDBus.readString(m, limit: 64) else { return nil }
                heard.mode = mode
                _ = sd_bus_message_exit_container(m)
            case "Rotation":
                guard sd_bus_message_enter_container(m, Character("v").asCChar, "u") > 0,
                      let degrees = SDBus.readUInt32(m) else { return nil }
                // Only a rotation the service could be in: another is no news.
                heard.rotation = QuarterTurn(degrees: degrees)
                _ = sd_bus_message_exit_container(m)
            case let flag where flag == "Paused" || flag == "Locked":
                guard sd_bus_message_enter_container(m, Character("v").asCChar, "b") > 0,
                      let value = SDBus.readBool(m) else { return nil }
                if flag == "Paused" { heard.paused = value } else { heard.locked = value }
                _ = sd_bus_message_exit_container(m)
            default:
                guard sd_bus_message_skip(m, "v") >= 0 else { return nil }
            }
            _ = sd_bus_message_exit_container(m)
        }
        _ = sd_bus_message_exit_container(m)
        return heard
    }
}
