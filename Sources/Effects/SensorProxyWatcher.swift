import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Logging
import SystemIO
import SystemPackage
import TouchCore

/// Follows the display's rotation from the accelerometer, as GNOME and KDE do: it claims
/// iio-sensor-proxy's accelerometer (`net.hadess.SensorProxy.ClaimAccelerometer`, held
/// while this connection lives), reads `AccelerometerOrientation` and follows its
/// PropertiesChanged, whose value it takes as it comes. When the proxy goes away the last
/// rotation stays, said once; when it comes back it is claimed again. Asynchronous, on a
/// system-bus connection of its own the loop watches; a read under way is never
/// cancelled by the next signal (the next read follows it). The proxy is not trusted: a
/// name it does not define is ignored, said at most once a minute.
public final class SensorProxyWatcher {

    private let logger: Logger
    private var connection: BusConnection?
    private let call = PendingCall()
    private var saidMissing = false
    /// The last orientation read, as the proxy names it, and the rotation it gave.
    public private(set) var orientation: String?
    private var inForceTurn: QuarterTurn?
    /// A read is under way; another was asked for meanwhile.
    private var reading = false
    private var readAgain = false
    /// When a name it does not define was last said.
    private var saidNonsenseAt: Int64?
    /// Called with the display's rotation and the proxy's name for it.
    public var onRotation: (_ turn: QuarterTurn, _ orientation: String) -> Void = { _, _ in }
    public var onWatchChange: (_ old: BusService.Watch?, _ new: BusService.Watch?) -> Void = { _, _ in }

    public init(logger: Logger) {
        self.logger = logger
    }

    deinit {
        call.cancel()
    }

    public func start() {
        let connection: BusConnection
        do { connection = try BusConnection(.system) } catch {
            return missing("cannot connect to the system bus (\(error))")
        }
        self.connection = connection
        connection.onWatchChange = { [unowned self] old, new in onWatchChange(old, new) }
        do throws(Errno) {
            try connection.matchSignal(sender: SensorProxy.service, path: SensorProxy.path, interface: "org.freedesktop.DBus.Properties",
                                       member: "PropertiesChanged") { [unowned self] in propertiesChanged($0) }
            try connection.followOwner(of: SensorProxy.service) { [unowned self] in ownerChanged($0) }
        } catch {
            return missing("cannot follow its signals (\(error))")
        }
        claim()
    }

    public func process() {
        guard let connection, let error = connection.process() else { return }
        call.cancel()
        self.connection = nil
        reading = false
        logger.warning("rotation: the system bus went away (\(error)); the rotation stays \(inForce)")
    }

    public var nextDeadline: Int64? { connection?.nextDeadline }

    private func claim() {
        guard let connection, let bus = connection.bus else { return }
        // The claim takes the connection's one call: a read under way is dropped, and
        // the claim's answer reads again.
        reading = false
        readAgain = false
        call.ask(bus, .claimAccelerometer) { [unowned self] reply, _ in
            if let error = SDBus.error(of: reply) { return missing("cannot claim the accelerometer (\(error))") }
            logger.info("rotation: following iio-sensor-proxy's accelerometer")
            saidMissing = false
            read()
        }
        connection.updateWatch()
    }

    /// AccelerometerOrientation, after the read under way when there is one.
    private func read() {
        guard let connection, let bus = connection.bus else { return }
        guard !reading else { readAgain = true; return }
        reading = true
        let asked = call.ask(bus, .accelerometerOrientation) { [unowned self] _, name in
            if let name { heard(name) }
            reading = false
            if readAgain {
                readAgain = false
                read()
            }
        }
        if !asked { reading = false }
        connection.updateWatch()
    }

    /// The orientation the signal carries, or a read when it only says it changed.
    private func propertiesChanged(_ message: OpaquePointer) {
        guard let change = PeerMessage.propertiesChanged(message, wanted: ["AccelerometerOrientation": "s"]),
              change.interface == SensorProxy.interface else { return }
        if case .string(let name)? = change.values["AccelerometerOrientation"] {
            heard(name)
        } else if !change.invalidated.isEmpty {
            read()
        }
    }

    private func heard(_ name: String) {
        guard name == "undefined" || QuarterTurn(sensorOrientation: name) != nil else {
            let now = monotonicMicroseconds()
            if saidNonsenseAt.map({ now - $0 >= 60_000_000 }) ?? true {
                logger.warning("rotation: iio-sensor-proxy reports an orientation it does not define (\"\(name)\"); ignored, the rotation stays \(inForce)")
                saidNonsenseAt = now
            }
            return
        }
        guard name != orientation else { return }
        orientation = name
        if let turn = QuarterTurn(sensorOrientation: name) {
            inForceTurn = turn
            onRotation(turn, name)
        }
    }

    /// The rotation the accelerometer last gave, in words.
    private var inForce: String {
        inForceTurn.map { "\($0)" } ?? "as it was"
    }

    /// The proxy started (again): claimed anew, since a claim dies with its holder.
    private func ownerChanged(_ owner: String) {
        if owner.isEmpty { return missing("iio-sensor-proxy went away") }
        claim()
    }

    private func missing(_ why: String) {
        if !saidMissing {
            logger.warning("rotation: \(why); the rotation stays \(inForce), and is followed again when iio-sensor-proxy comes back")
        }
        saidMissing = true
    }
}
