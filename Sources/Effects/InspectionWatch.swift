import CSystemd
import Pipeline
import SystemIO

/// The studio's side of Inspect: asks the running gestured to send this connection what it
/// decides (`Inspection`), and passes each update on. gestured is looked for as `gestured
/// status` looks: on the system bus (the service), else on the session bus (a user's own
/// daemon). Asked again whenever gestured comes (back) on its bus; updates are taken from
/// gestured's connection alone.
public final class InspectionWatch: BusSource {
    private var connection: BusConnection?
    private var kind = BusService.Kind.system
    private let call = PendingCall()
    private let ownerCall = PendingCall()
    /// The unique name that owns org.gestured.Gestured1 on the bus, as last heard.
    private var gestured: String?
    private var request = InspectRequest.off
    private var askedAgain = false
    public var onUpdate: (Inspection) -> Void = { _ in }
    /// nil: gestured does as asked; else why not, in words.
    public var onAnswer: (_ refusal: String?) -> Void = { _ in }
    public var onWatchChange: (_ old: BusService.Watch?, _ new: BusService.Watch?) -> Void = { _, _ in }

    public init() {}

    /// Watch, watch with the user's actions held back (`dry`), or stop.
    public func ask(_ request: InspectRequest) {
        self.request = request
        guard connection != nil else { return connect(.system) }
        send()
    }

    private func connect(_ kind: BusService.Kind) {
        connection?.close()
        connection = nil
        gestured = nil
        self.kind = kind
        do {
            let connection = try BusConnection(kind)
            connection.onWatchChange = { [unowned self] old, new in onWatchChange(old, new) }
            try connection.followOwner(of: BusService.name) { [unowned self] owner in
                gestured = owner.isEmpty ? nil : owner
                if gestured != nil { send() }
            }
            try connection.matchSignal(sender: BusService.name, path: BusService.path, interface: BusService.interface,
                                       member: Inspection.member) { [unowned self] in update($0) }
            self.connection = connection
            connection.updateWatch()
        } catch {
            return kind == .system ? connect(.session) : onAnswer("cannot connect to the session bus (\(error))")
        }
        guard let bus = connection?.bus else { return }
        ownerCall.ask(bus, .owner(of: BusService.name)) { [unowned self] _, owner in
            guard let owner else {
                // No gestured on the system bus: a user's own may be on the session bus.
                if self.kind == .system { return connect(.session) }
                return onAnswer("no gestured is running (neither the service on the system bus nor yours on the session bus): open the studio again once one runs")
            }
            gestured = owner
            send()
        }
        connection?.updateWatch()
    }

    private func send() {
        guard let connection, let bus = connection.bus, gestured != nil else { return }
        call.ask(bus, .gestured(InspectCall(request: request))) { [unowned self] reply, _ in
            // The service asks a caller it did not know yet to call again, once it knows
            // who calls: once, not for ever.
            if let name = SDBus.errorName(of: reply), BusService.asksAgain(name), !askedAgain {
                askedAgain = true
                return send()
            }
            askedAgain = false
            onAnswer(SDBus.error(of: reply))
        }
        connection.updateWatch()
    }

    private func update(_ message: OpaquePointer) {
        guard let gestured, SDBus.sender(message) == gestured, let inspection = Inspection.read(from: message) else { return }
        onUpdate(inspection)
    }

    public var nextDeadline: Int64? { connection?.nextDeadline }

    public func process() {
        guard let connection, let error = connection.process() else { return }
        self.connection = nil
        gestured = nil
        onAnswer("the \(kind) bus went away (\(error))")
    }
}
