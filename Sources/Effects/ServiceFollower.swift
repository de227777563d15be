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
        public var touchLocked: Bool?
        public var rotation: QuarterTurn?
    }

    private let kind: BusService.Kind
    private let logger: Logger
    private var connection: BusConnection?
    /// Panels asked for their rotation, their answers not in yet: at most one call a panel.
    private var panelsAsked: Set<String> = []
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
        panelsAsked = []
    }

    public var nextDeadline: Int64? { connection?.nextDeadline }

    /// GetAll on the service; an error (no service) says nothing. The call floats: the
    /// bus drops it with the connection.
    private func readAll() {
        guard let connection, let bus = connection.bus else { return }
        BusQuestion.serviceProperties.ask(on: bus) { [weak self] _, heard in
            guard let self, let heard else { return }
            logger.info("monitor: following the service on the \(kind) bus")
            onHeard(heard)
            onFound()
        }
        connection.updateWatch()
    }

    /// Asks the panel's object for its rotation (once at a time); an error (no such panel
    /// there) says nothing.
    public func readRotation(ofPanel path: String) {
        guard let connection, let bus = connection.bus, !panelsAsked.contains(path),
              BusQuestion.panelRotation(at: path).ask(on: bus, { [weak self] _, degrees in self?.panelAnswered(degrees, path) }) else { return }
        panelsAsked.insert(path)
        connection.updateWatch()
    }

    private func panelAnswered(_ degrees: UInt32?, _ path: String) {
        panelsAsked.remove(path)
        guard let degrees, let turn = QuarterTurn(degrees: degrees) else { return }
        onPanelRotation(path, turn)
    }

    /// PropertiesChanged of a panel's object.
    private func panelChanged(_ message: OpaquePointer) {
        guard let path = SDBus.path(message), let turn = Heard.changed(message, of: BusService.deviceInterface)?.rotation else { return }
        onPanelRotation(path, turn)
    }

    private func propertiesChanged(_ message: OpaquePointer) {
        guard let heard = Heard.changed(message, of: BusService.interface) else { return }
        onHeard(heard)
    }

    /// The service started (again): what it says now.
    private func ownerChanged(_ owner: String) {
        guard !owner.isEmpty else { return }
        readAll()
    }
}
