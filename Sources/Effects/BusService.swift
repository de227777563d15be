import Bindings
import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Gestures
import Logging
import Pipeline
import SystemIO
import SystemPackage

/// gestured on the system or session bus through sd-bus: the object
/// `/org/gestured/Gestured1` with the `Gesture(name, type, phase, values a{sv})` signal and
/// the control interface (see `BusControl`), without ever waiting for the bus: signals,
/// replies and property changes are queued and
/// written when the bus's descriptor has room (the loop watches it for that), the name is
/// requested asynchronously, and nothing is flushed in between. A missing bus is logged
/// once and tried again every `retry` (doubling up to a minute while it stays away), and
/// when a gesture needs it. A bus that stops reading (a stalled
/// dbus-daemon) costs bounded memory: sd-bus holds at most `busQueueLimit` signals, the
/// rest wait in `SignalQueue`, which drops the oldest `changed` first and counts what it
/// drops, said at most once a minute; property changes wait as a set of names.
public final class BusService {
    static let name = "org.gestured.Gestured1"
    static let path = "/org/gestured/Gestured1"
    static let interface = "org.gestured.Gestured1"
    /// Signals handed to sd-bus and not yet written: past these, they wait in `pending`.
    static let busQueueLimit: UInt64 = 64
    /// Properties read from the daemon when asked, never from the cache of the others: they
    /// change at every touch (paced), and the others cost a walk of every gesture and panel.
    static let readWhenAsked: Set<ControlProperty> = [.idle, .lastTouch]

    /// Described by its name: interpolated into a log line, an enum without a
    /// description is printed through the runtime's reflection (slow at start).
    public enum Kind: String, Sendable, CustomStringConvertible {
        case system, session
        public var description: String { rawValue }
    }

    /// What the loop watches on the bus: its descriptor, and whether output waits for room.
    /// sd-bus says both (SDBus.swift); a desktop's follower only reads.
    public struct Watch: Equatable, Sendable {
        public var fd: FileDescriptor
        public var writable: Bool

        public static func reading(_ fd: FileDescriptor) -> Watch { Watch(fd: fd, writable: false) }
    }

    public let kind: Kind
    let logger: Logger
    private var connection: BusConnection?
    var bus: OpaquePointer? { connection?.bus }
    private var reportedDown = false
    private var retryAt: Int64 = 0
    private var backoff = Backoff(first: 1_000_000)
    private var pending = SignalQueue()
    /// Queued behind another owner of the name: its NameAcquired is news worth a line.
    private var waitingForName = false
    private var droppedReportedAt: Int64?
    /// Property changes not yet announced: the bus had no room.
    private var owedChanges: [ControlProperty] = []
    /// Devices whose Rotation changed, not yet announced.
    private var owedDeviceChanges: [String] = []
    /// The daemon, for the control interface's calls and properties.
    public weak var control: BusControl?
    /// The properties as last built: made again once a change is announced, not for each
    /// read (a GetAll reads every one, and anyone may ask as often as they like).
    var properties: ControlProperties?
    /// How many reads callers may still ask for.
    var reads = ReadAllowance(now: monotonicMicroseconds())
    /// Reports of the application in front: those of callers who may report (the seat's
    /// session's) have a ration of their own, so that others, refused, cannot crowd
    /// them out; on the session bus every caller is the user's.
    var reports = ReadAllowance(now: monotonicMicroseconds())
    var reportsOfTheSeat = ReadAllowance(now: monotonicMicroseconds())
    var saidReportDrops = false
    var saidUnknownCallers = false
    /// Who calls ReportApp on the system bus.
    let callers = BusCallers()
    /// AppWanted is to be said (the session in front changed).
    private var owedAppWanted = false
    /// Actions to agents the bus had no room for, since the last one it took (said once).
    var saidActionDrops = false
    /// Overlay, Progress and inspector updates: the latest of each the bus had no room for.
    var latestUpdates = LatestUpdates()
    /// Called when what the loop must watch changes: connected, output queued or written, gone.
    public var onWatchChange: (_ old: Watch?, _ new: Watch?) -> Void = { _, _ in }

    public init(kind: Kind, logger: Logger) {
        self.kind = kind
        self.logger = logger
    }

    /// Connects, exports the object and asks for the well-known name, none of it waiting
    /// for the bus; false (logged once) when the bus is not there, or was not a moment ago.
    @discardableResult
    public func connect(now: Int64) -> Bool {
        guard connection == nil else { return true }
        guard now >= retryAt else { return false }
        let connection: BusConnection
        do { connection = try BusConnection(kind) } catch {
            return down("cannot connect to the \(kind) bus: \(error)", now: now)
        }
        do throws(Errno) {
            try export(on: connection)
            // Reads beyond the callers' ration are dropped before they cost anything.
            try connection.filter { [unowned self] in admitsRead($0) }
            // Owned by another process (a second gestured), the name is queued for: the
            // bus hands it over when that one lets go, and says so with NameAcquired.
            try connection.matchSignal(sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                       member: "NameAcquired") { [unowned self] in nameAcquired($0) }
            try connection.requestName(Self.name, flags: UInt64(SD_BUS_NAME_QUEUE)) { [unowned self] in nameReplied($0) }
            // A connection that leaves (its unique name lost): a reporter of the application in front.
            try connection.match(rule: "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg2=''") {
                [unowned self] in peerLeft($0)
            }
        } catch {
            connection.close()
            return down("cannot set up the \(kind) bus connection: \(error)", now: now)
        }
        connection.onWatchChange = { [unowned self] old, new in onWatchChange(old, new) }
        self.connection = connection
        reportedDown = false
        backoff.reset()
        logger.info("D-Bus: connecting to the \(kind) bus")
        connection.updateWatch()
        return true
    }

    /// The object with the control interface, and one for each device.
    private func export(on connection: BusConnection) throws(Errno) {
        guard let bus = connection.bus else { throw .socketNotConnected }
        var rc = gestured_bus_add_object(bus, Self.path, Self.interface, { message, userdata, error in
            guard let message, let userdata else { return -EINVAL }
            return Unmanaged<BusService>.fromOpaque(userdata).takeUnretainedValue().call(message, error: error)
        }, { _, _, _, property, reply, userdata, _ in
            guard let property, let reply, let userdata else { return -EINVAL }
            return Unmanaged<BusService>.fromOpaque(userdata).takeUnretainedValue().read(String(cString: property), into: reply)
        }, { _, _, _, property, value, userdata, error in
            guard let property, let value, let userdata else { return -EINVAL }
            return Unmanaged<BusService>.fromOpaque(userdata).takeUnretainedValue().write(String(cString: property), from: value, error: error)
        }, Unmanaged.passUnretained(self).toOpaque())
        if rc >= 0 { rc = addDeviceObjects(bus) }
        guard rc >= 0 else { throw Errno(rawValue: -rc) }
    }

    /// RequestName's answer: 1, the name is ours; 2, queued behind its owner; 4, ours
    /// already. An error (the bus policy) leaves signals going out without the name.
    private func nameReplied(_ reply: OpaquePointer) {
        if let error = SDBus.error(of: reply) {
            // Signals still reach clients that match on the interface; say why the name is missing.
            return logger.warning("D-Bus: cannot own \(Self.name) on the \(kind) bus: \(error) (see the bus policy in dbus/)")
        }
        guard let result = PeerMessage.requestNameResult(reply) else {
            return logger.warning("D-Bus: cannot read the answer to requesting \(Self.name) on the \(kind) bus")
        }
        switch result {
        case 1, 4: logger.info("D-Bus: connected to the \(kind) bus as \(Self.name)")
        case 2:
            waitingForName = true
            logger.warning("D-Bus: \(Self.name) is owned by another process on the \(kind) bus (another gestured?); signals go out from this connection's own name, and the well-known name is taken when the other lets it go")
        default: logger.warning("D-Bus: \(Self.name) is owned by another process on the \(kind) bus and cannot be queued for (RequestName answered \(result))")
        }
    }

    private func peerLeft(_ message: OpaquePointer) {
        guard let name = PeerMessage.name(message), name.hasPrefix(":") else { return }
        callers.forget(name)
        latestUpdates.forget(destination: name)
        control?.peerLeft(name)
    }

    /// Asks every reporter of the application in front to say it again (the signal
    /// AppWanted): another session came in front, whose agent has not said it to us.
    public func wantApp() {
        guard connection != nil else { return }
        owedAppWanted = true
        sendPending()
        updateWatch()
    }

    private func nameAcquired(_ message: OpaquePointer) {
        guard PeerMessage.name(message) == Self.name, waitingForName else { return }
        waitingForName = false
        logger.info("D-Bus: now the owner of \(Self.name) on the \(kind) bus")
    }

    /// Handles what the bus has for us (method calls, replies, introspection) and writes
    /// what is queued, as far as it goes without waiting; drops a dead connection, and
    /// connects again when its retry is due.
    public func process(now: Int64) {
        guard let connection else {
            connect(now: now)
            return
        }
        if let error = connection.process() {
            return disconnect(reason: "the \(kind) bus went away (\(error)); will reconnect")
        }
        if let refused = reads.dueReport(now: now) {
            logger.warning("D-Bus: \(refused) property reads dropped unanswered since the last such line: callers read faster than 10 a second each, or 50 all together")
        }
        if let dropped = reports.dueReport(now: now) {
            logger.notice("D-Bus: \(dropped) reports of the application in front dropped unanswered since the last such line: callers report faster than 10 a second each, or 50 all together")
        }
        sendPending()
        updateWatch()
    }

    /// The same, now: as the loop runs what follows the bus (`BusSource`).
    public func process() { process(now: monotonicMicroseconds()) }

    /// When sd-bus next needs `process()` even if nothing arrives (a reply's timeout),
    /// on the monotonic clock in microseconds.
    public var nextDeadline: Int64? {
        // Down, the control interface is looked for again at the next retry.
        guard let connection else { return control != nil && reportedDown ? retryAt : nil }
        return connection.nextDeadline
    }

    /// What the loop watches now; nil while not connected.
    public var currentWatch: Watch? { connection?.currentWatch }

    /// Whether signals are still queued for the bus: ours, or sd-bus's (which holds what
    /// was sent while the connection was still being made, until the bus says hello).
    public var hasQueuedOutput: Bool {
        !pending.isEmpty || !owedChanges.isEmpty || !owedDeviceChanges.isEmpty || !latestUpdates.isEmpty || (currentWatch?.writable ?? false)
            || (bus.flatMap(SDBus.queuedWrites) ?? 0) > 0
    }

    /// Announces properties' new values with PropertiesChanged, when the bus has room.
    public func announce(_ properties: [ControlProperty]) {
        if properties.contains(where: { !Self.readWhenAsked.contains($0) }) { self.properties = nil }
        for property in properties where !owedChanges.contains(property) { owedChanges.append(property) }
        sendPending()
        updateWatch()
    }

    /// Announces devices' new Rotation with PropertiesChanged on their objects.
    public func announceRotation(of nodes: [String]) {
        for node in nodes where !owedDeviceChanges.contains(node) { owedDeviceChanges.append(node) }
        sendPending()
        updateWatch()
    }

    /// Gives queued signals up to `microseconds` to go out: at exit, so the last gestures
    /// of a replay or before a stop are not lost.
    public func finish(within microseconds: Int64, now: () -> Int64) {
        guard let bus else { return }
        let end = now() + microseconds
        updateWatch()  // what the last calls queued (a reply) counts too
        while hasQueuedOutput, now() < end {
            SDBus.wait(bus, microseconds: UInt64(max(0, end - now())))
            process(now: now())
        }
        droppedReportedAt = nil
        reportDropped(now: now())
    }

    /// Queues the Gesture signal and sends what sd-bus has room for.
    /// `step`: for a step crossed, its `step` (+1, −1) and `steps` (net) in the values.
    public func emit(_ event: GestureEvent, device: String, step: StepCount? = nil, now: Int64) {
        guard connect(now: now) else { return }
        pending.append(event, device: device, step: step)
        sendPending()
        reportDropped(now: now)
        updateWatch()
    }

    /// Hands property changes, the latest updates held, then queued signals, to sd-bus
    /// while it holds fewer than `busQueueLimit` unwritten.
    private func sendPending() {
        if let bus, owedAppWanted, hasRoom(bus) {
            owedAppWanted = false
            guard let message = AppWanted().signal(on: bus) else { return logger.error("D-Bus: cannot build the AppWanted signal") }
            defer { SDBus.unref(message) }
            if let error = SDBus.send(bus, message) { logger.warning("D-Bus: cannot ask for the application in front: \(error)") }
        }
        while let bus, let property = owedChanges.first, hasRoom(bus) {
            owedChanges.removeFirst()
            let rc = property.rawValue.withCString { gestured_bus_emit_changed(bus, Self.path, Self.interface, $0) }
            if rc < 0 { logger.warning("D-Bus: cannot announce the change of \(property.rawValue): \(Errno(rawValue: -rc))") }
        }
        while let bus, let node = owedDeviceChanges.first, hasRoom(bus) {
            owedDeviceChanges.removeFirst()
            // A device gone meanwhile has no object left to announce from.
            guard control?.device(node) != nil else { continue }
            let rc = gestured_bus_emit_changed(bus, Self.devicePath(node), Self.deviceInterface, "Rotation")
            if rc < 0 { logger.warning("D-Bus: cannot announce the rotation of \(node): \(Errno(rawValue: -rc))") }
        }
        if let bus { latestUpdates.sendHeld(on: bus) { hasRoom(bus) } }
        while let bus, !pending.isEmpty {
            guard hasRoom(bus), let (event, device, step) = pending.removeFirst() else { return }
            send(event, device: device, step: step, on: bus)
        }
    }

    private func send(_ event: GestureEvent, device: String, step: StepCount?, on bus: OpaquePointer) {
        guard let message = GestureSignal(event: event, device: device, step: step).signal(on: bus) else {
            return logger.error("D-Bus: cannot build the Gesture signal for \(event.name)")
        }
        defer { SDBus.unref(message) }
        // Queued, and written as far as the socket takes it now; the rest when it has room.
        if let error = SDBus.send(bus, message) {
            return disconnect(reason: "cannot send on the \(kind) bus (\(error)); will reconnect for the next gesture")
        }
    }

    /// What the queue dropped: at once the first time, then at most once a minute.
    private func reportDropped(now: Int64) {
        guard pending.dropped.total > 0 else { return }
        if let last = droppedReportedAt, now - last < 60_000_000 { return }
        let (changed, other) = pending.takeDropped()
        logger.warning("D-Bus: the \(kind) bus is not taking signals; \(changed) changed and \(other) other Gesture signals dropped since the last such line")
        droppedReportedAt = now
    }

    /// Tells the loop what to watch now: the descriptor, and room to write while output is queued.
    func updateWatch() {
        connection?.updateWatch()
    }

    func hasRoom(_ bus: OpaquePointer) -> Bool {
        SDBus.queuedWrites(bus).map { $0 < Self.busQueueLimit } ?? false
    }

    private func down(_ message: String, now: Int64) -> Bool {
        if !reportedDown { logger.warning("D-Bus: \(message); gestures are still recognized and commands still run") }
        reportedDown = true
        retryAt = backoff.next(after: now)
        return false
    }

    private func disconnect(reason: String) {
        guard let connection else { return }
        logger.warning("D-Bus: \(reason)")
        connection.close()  // tells the loop to stop watching it
        self.connection = nil
        callers.forgetAll()
        owedAppWanted = false
        waitingForName = false
        pending = SignalQueue()
        latestUpdates.forgetAll()
        owedChanges = []
        owedDeviceChanges = []
    }
}

extension Character {
    /// An ASCII character as the `char` sd-bus takes for a type code.
    var asCChar: CChar { CChar(asciiValue!) }
}
