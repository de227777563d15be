import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Bindings
import Gestures
import Logging
import Pipeline
import SystemIO
import SystemPackage

/// The session agent's name on the session bus, `org.gestured.Agent1`: what a desktop's
/// own reporter (the KWin script, the GNOME Shell extension) says with ReportApp and
/// ReportWindows, passed on to the system service (`AppReporter`). The session bus is the
/// user's own: any caller there is the user. Names over `AppInFront.longestName` bytes are refused.
public final class AgentRelay: BusSource {
    public static let name = "org.gestured.Agent1"
    public static let path = "/org/gestured/Agent1"
    private let logger: Logger
    private var connection: BusConnection?
    /// What a desktop said: the application (nil: none) and the desktop's name.
    public var onReport: (_ app: AppInFront?, _ source: String) -> Void = { _, _ in }
    /// Where a desktop said the windows are (nil: not known), and the desktop's name.
    public var onWindows: (_ windows: WindowLayout?, _ source: String) -> Void = { _, _ in }
    public var onWatchChange: (_ old: BusService.Watch?, _ new: BusService.Watch?) -> Void = { _, _ in }
    /// Overlay and Progress updates: the latest of each the bus had no room for.
    private var latestUpdates = LatestUpdates()

    public init(logger: Logger) { self.logger = logger }

    /// False without a session bus (the KWin script and the extension then have none to call either).
    @discardableResult
    public func start() -> Bool {
        do {
            let connection = try BusConnection(.session)
            guard let bus = connection.bus else { return false }
            let rc = gestured_bus_add_agent(bus, Self.path, Self.name, { message, userdata, error in
                guard let message, let userdata else { return -EINVAL }
                let relay = Unmanaged<AgentRelay>.fromOpaque(userdata).takeUnretainedValue()
                return SDBus.member(message) == "ReportWindows" ? relay.reportWindows(message, error: error) : relay.reportApp(message, error: error)
            }, Unmanaged.passUnretained(self).toOpaque())
            guard rc >= 0 else { throw Errno(rawValue: -rc) }
            try connection.requestName(Self.name, flags: 0) { [unowned self] reply in
                if let error = SDBus.error(of: reply) { logger.warning("cannot own \(Self.name) on the session bus: \(error)") }
            }
            connection.onWatchChange = { [unowned self] old, new in onWatchChange(old, new) }
            self.connection = connection
            connection.updateWatch()
            return true
        } catch {
            logger.info("no session bus (\(error)): only the desktop's own socket says which application is in front")
            return false
        }
    }

    private func reportApp(_ message: OpaquePointer, error reply: SDBus.ErrorOut) -> Int32 {
        guard let report = AppReport.read(from: message) else { return -EINVAL }
        guard !report.tooLong else {
            return SDBus.fail(reply, "org.freedesktop.DBus.Error.InvalidArgs", "a name is at most \(AppInFront.longestName) bytes")
        }
        let source = report.source.isEmpty ? "the session bus" : report.source
        onReport(report.app(source: source), source)
        return SDBus.answer(message)
    }

    private func reportWindows(_ message: OpaquePointer, error reply: SDBus.ErrorOut) -> Int32 {
        guard let report = WindowsReport.read(from: message) else { return -EINVAL }
        guard !report.tooLong else {
            return SDBus.fail(reply, "org.freedesktop.DBus.Error.InvalidArgs", "a source is at most \(AppInFront.longestName) bytes")
        }
        onWindows(report.layout, report.layout?.source ?? "the session bus")
        return SDBus.answer(message)
    }

    /// One of its user's gestures fired whose binding says `signal = true`: the Gesture
    /// signal, as the service would emit it, on the session bus from this agent's
    /// connection (listeners there match org.gestured.Agent1's owner as the sender).
    public func emit(_ event: GestureEvent, device: String, step: StepCount?) {
        guard let connection, let bus = connection.bus else { return }
        guard let message = GestureSignal(event: event, device: device, step: step).signal(on: bus) else {
            return logger.error("cannot build the Gesture signal for \(event.name)")
        }
        defer { SDBus.unref(message) }
        if let error = SDBus.send(bus, message) { logger.warning("cannot emit \(event.name)'s signal on the session bus: \(error)") }
        connection.updateWatch()
    }

    /// A tagged edge swipe's progress from gestured: the Progress signal on the session
    /// bus, from this agent's connection, as its Gesture signals are. While the bus is not
    /// taking what it has, only the latest is kept, sent when it has room (`LatestUpdates`).
    public func progress(_ update: ProgressUpdate) {
        guard let connection, let bus = connection.bus else { return }
        latestUpdates.send(ProgressUpdate.member, to: nil, on: bus, hasRoom: Self.hasRoom(bus)) { update.signal(on: $0) }
        connection.updateWatch()
    }

    /// An overlay update from gestured, passed on to `destination` alone (GNOME Shell,
    /// where the shipped extension draws it): the service's Feedback, sent from this
    /// agent's name, on the same terms.
    public func feedback(_ frame: FeedbackFrame, to destination: String) {
        guard let connection, let bus = connection.bus else { return }
        latestUpdates.send(FeedbackFrame.member, to: destination, on: bus, hasRoom: Self.hasRoom(bus)) {
            frame.signal(on: $0, from: Self.path, Self.name, to: destination)
        }
        connection.updateWatch()
    }

    /// Unwritten messages past which an overlay or Progress update is held (a stalled session bus).
    static let mostQueuedUpdates: UInt64 = 16

    private static func hasRoom(_ bus: OpaquePointer) -> Bool {
        SDBus.queuedWrites(bus).map { $0 < mostQueuedUpdates } ?? false
    }

    public var nextDeadline: Int64? { connection?.nextDeadline }

    public func process() {
        guard let connection else { return }
        if let error = connection.process() {
            self.connection = nil
            latestUpdates.forgetAll()
            return logger.warning("the session bus went away (\(error))")
        }
        guard let bus = connection.bus, !latestUpdates.isEmpty else { return }
        latestUpdates.sendHeld(on: bus) { Self.hasRoom(bus) }
        connection.updateWatch()
    }
}
