import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Gestures
import Pipeline
import SystemIO
import TouchCore

/// What the control interface (`org.gestured.Gestured1`'s methods and properties) asks of
/// the daemon. Every call comes from the loop, inside `BusService.process()`.
public protocol BusControl: AnyObject {
    var controlProperties: ControlProperties { get }
    func setMode(_ mode: String) throws(BusControlError)
    func pause(seconds: UInt32) throws(BusControlError)
    func resume()
    /// No touch for `idle_s`.
    var idle: Bool { get }
    /// When a touch last began (as last said, see `last_touch_interval_s`), in
    /// microseconds since 1970; 0: none since gestured started.
    var lastTouch: UInt64 { get }
    /// The touch lock on or off (LockTouch, UnlockTouch).
    func lockTouch(_ locked: Bool)
    /// The display's rotation, for panels whose rotation is auto or external.
    func setRotation(_ degrees: UInt32) throws(BusControlError)
    /// The touchscreens' nodes, each an object of its own (see `BusService.devicePath`).
    var deviceNodes: [String] { get }
    func device(_ node: String) -> ControlProperties.Device?
    /// One panel's rotation (one whose rotation is auto or external), until the display's
    /// rotation changes again.
    func setRotation(_ degrees: UInt32, of node: String) throws(BusControlError)
    /// Starts a reload; `done` gets nil once it is applied, or why it was not.
    func reload(_ done: @escaping (BusControlError?) -> Void)
    /// A desktop's report of the application in front (a KWin script, a GNOME Shell
    /// extension, gestured's session agent): `sender` is the caller's unique name.
    func reportApp(_ report: AppReport, sender: String) throws(BusControlError)
    /// A desktop's report of where the windows are (ReportWindows), as `reportApp`.
    func reportWindows(_ report: WindowsReport, sender: String) throws(BusControlError)
    /// A user's configuration from their session's agent (SetUserConfiguration, the
    /// system bus): `caller` as the bus and logind say who called.
    func setUserConfiguration(_ push: UserPush, caller: BusCaller?, sender: String) throws(BusControlError)
    /// A process of the user in front asks to watch the gestures being decided (Inspect).
    func inspect(_ request: InspectRequest, caller: BusCaller?, sender: String) throws(BusControlError)
    /// Whether this caller's reports are taken on the system bus (the user and session
    /// in front of the seat): others are refused, within a ration of their own.
    func mayReport(_ caller: BusCaller) -> Bool
    /// Whether a hand-over from this caller would be looked at now (`mayReport`, and
    /// within the seat's pace of hand-overs): its arguments are read only then.
    func looksAtPush(from caller: BusCaller) -> Bool
    /// A connection left the bus (its unique name).
    func peerLeft(_ name: String)
}

/// A D-Bus error for the caller: `org.gestured.Gestured1.Error.<name>` and a message.
public struct BusControlError: Error, Equatable {
    public var name: String
    public var message: String

    public init(_ name: String, _ message: String) {
        self.name = "\(BusService.interface).Error.\(name)"
        self.message = message
    }
}

/// The properties' values, read when a client asks or a change is announced.
public struct ControlProperties {
    public struct Gesture {
        public var name, type: String
        public var modes: [String]
        public init(name: String, type: String, modes: [String]) {
            self.name = name
            self.type = type
            self.modes = modes
        }
    }

    public struct Device {
        public var node, name: String
        public var isolated: Bool
        /// The rotation its next touch sequence is measured with, in clockwise degrees.
        public var rotation: Int
        /// The screen it belongs to and whether that is lit (see `Screens.describe`);
        /// empty when the daemon did not say.
        public var screen: String
        public init(node: String, name: String, isolated: Bool, rotation: Int, screen: String = "") {
            self.node = node
            self.name = name
            self.isolated = isolated
            self.rotation = rotation
            self.screen = screen
        }
    }

    public var mode: String
    public var modes: [String]
    public var paused: Bool
    /// The session in front of the panel is locked (logind): only when_locked gestures fire.
    public var locked: Bool
    /// The touch lock: no touch reaches applications, only the gestures that unlock fire.
    public var touchLocked: Bool
    public var gestures: [Gesture]
    public var devices: [Device]
    /// The display's rotation in clockwise degrees.
    public var rotation: Int
    /// The application in front; nil when none is known.
    public var app: AppInFront?
    /// The system service's: the session in front of seat0; nil when none is known.
    public var session: Session?

    public struct Session: Equatable {
        /// logind's id of it, and its user.
        public var id: String
        public var uid: UInt32
        /// Whether its agent is on the bus, and how many of its user's gestures are in force.
        public var agent: Bool
        public var userGestures: Int
        /// The file its agent handed over ("" for none).
        public var file: String
        public init(id: String, uid: UInt32, agent: Bool, userGestures: Int, file: String) {
            self.id = id
            self.uid = uid
            self.agent = agent
            self.userGestures = userGestures
            self.file = file
        }
    }

    public init(mode: String, modes: [String], paused: Bool, locked: Bool, touchLocked: Bool, gestures: [Gesture], devices: [Device],
                rotation: Int, app: AppInFront?, session: Session? = nil) {
        self.mode = mode
        self.modes = modes
        self.paused = paused
        self.locked = locked
        self.touchLocked = touchLocked
        self.gestures = gestures
        self.devices = devices
        self.rotation = rotation
        self.app = app
        self.session = session
    }
}

extension BusService {
    /// A method call; its signature sd-bus checked against the vtable already.
    func call(_ message: OpaquePointer, error reply: SDBus.ErrorOut) -> Int32 {
        guard let control else { return SDBus.fail(reply, "org.freedesktop.DBus.Error.Failed", "gestured is starting") }
        let member = SDBus.member(message)
        do throws(BusControlError) {
            switch member {
            case "SetMode":
                guard let mode = ControlArguments.mode(message) else { return -EINVAL }
                try control.setMode(mode)
            case "Pause":
                guard let seconds = ControlArguments.unsigned(message) else { return -EINVAL }
                try control.pause(seconds: seconds)
            case "Resume":
                control.resume()
            case "LockTouch", "UnlockTouch":
                control.lockTouch(member == "LockTouch")
            case "ReportApp", "ReportWindows":
                let sender = SDBus.sender(message)
                let caller = callers.caller(sender)
                // On the system bus, a caller the seat refuses has none of its arguments read.
                let refused = kind == .system && !(caller.map(control.mayReport) ?? false)
                if member == "ReportApp" {
                    guard var report = refused ? AppReport.unread : AppReport.read(from: message) else { return -EINVAL }
                    report.caller = caller
                    try control.reportApp(report, sender: sender)
                } else {
                    guard var report = refused ? WindowsReport.unread : WindowsReport.read(from: message) else { return -EINVAL }
                    report.caller = caller
                    try control.reportWindows(report, sender: sender)
                }
            case "SetUserConfiguration":
                let sender = SDBus.sender(message)
                let caller = callers.caller(sender)
                // Who calls is judged before any argument is read: the seat refuses an
                // unread hand-over from anyone but the session in front's user, and one
                // beyond its pace.
                guard let caller, control.looksAtPush(from: caller) else {
                    try control.setUserConfiguration(.unread, caller: caller, sender: sender)
                    return SDBus.answer(message)
                }
                guard let push = UserPush.read(from: message) else { return -EINVAL }
                try control.setUserConfiguration(push, caller: caller, sender: sender)
            case "Inspect":
                let sender = SDBus.sender(message)
                let caller = callers.caller(sender)
                // On the system bus, a caller the seat refuses has its argument unread
                // (a held call has none left): the seat refuses its "off" as it would any.
                let refused = kind == .system && !(caller.map(control.mayReport) ?? false)
                guard let call = refused ? InspectCall(request: .off) : InspectCall.read(from: message) else { return -EINVAL }
                try control.inspect(call.request, caller: caller, sender: sender)
            case "Reload":
                // Answered once the reload is applied or rejected; the loop goes on meanwhile.
                // The call's reference is let go with the answer, whatever became of this
                // connection meanwhile.
                SDBus.ref(message)
                control.reload { failure in
                    BusService.answer(message, failure)
                    SDBus.unref(message)
                }
                return 1
            default:
                return SDBus.fail(reply, "org.freedesktop.DBus.Error.UnknownMethod", "no method \(member)")
            }
        } catch {
            return SDBus.fail(reply, error.name, error.message)
        }
        return SDBus.answer(message)
    }

    /// A deferred answer: empty, or `failure`.
    private static func answer(_ call: OpaquePointer, _ failure: BusControlError?) {
        guard let failure else { SDBus.answer(call); return }
        SDBus.answer(call, error: failure.name, failure.message)
    }

    /// Rotation written: checked by the daemon.
    func write(_ name: String, from value: OpaquePointer, error reply: SDBus.ErrorOut) -> Int32 {
        guard let control, ControlProperty(rawValue: name) == .rotation else { return -EPERM }
        guard let degrees = ControlArguments.unsigned(value) else { return -EINVAL }
        do { try control.setRotation(degrees) } catch { return SDBus.fail(reply, error.name, error.message) }
        return 1
    }

    /// A property's value into `reply`: Idle and LastTouch as they are now (they change
    /// at every touch), the others from the values built once per change.
    func read(_ name: String, into reply: OpaquePointer) -> Int32 {
        guard let control, let property = ControlProperty(rawValue: name) else { return -ENOENT }
        let values = properties ?? control.controlProperties
        properties = values
        return values.write(property, idle: control.idle, lastTouch: control.lastTouch, into: reply) ? 1 : -ENOMEM
    }

    /// A caller's Get, GetAll or Set, ReportApp, ReportWindows, SetUserConfiguration and Inspect, within the callers' ration (see
    /// `ReadAllowance`; reports have rations of their own, so that readers cannot crowd
    /// out a desktop's report, nor others the seat's session's); beyond it the call is
    /// dropped unanswered, which costs nothing here, and on the system bus holds the
    /// caller to dbus-daemon's 128 calls in progress. On the system bus a report from a
    /// caller not yet known is held (its sender and serial alone) until dbus-daemon says who it is (`BusCallers`).
    func admitsRead(_ call: OpaquePointer) -> Bool {
        let sender = SDBus.sender(call)
        if ["ReportApp", "ReportWindows", "SetUserConfiguration", "Inspect"].contains(where: { SDBus.isCall(call, Self.interface, $0) }) {
            guard kind == .system else { return admitsReport(from: sender, ofTheSeat: true) }
            if let caller = callers.caller(sender) { return admitsReport(from: sender, ofTheSeat: control?.mayReport(caller) == true) }
            if let bus, callers.hold(call, from: sender, on: bus, judge: { [unowned self] call, caller in judged(call, caller) }) { return false }
            if !saidUnknownCallers {
                saidUnknownCallers = true
                logger.notice("D-Bus: dropping reports and configurations from sessions unanswered: \(BusCallers.mostAsked) callers are being asked about already (said once)")
            }
            return false
        }
        guard SDBus.isCall(call, "org.freedesktop.DBus.Properties", nil) else { return true }
        return reads.admit(sender, now: monotonicMicroseconds())
    }

    /// A report within its ration (the seat's session's, or everyone else's), else
    /// dropped and said once.
    private func admitsReport(from sender: String, ofTheSeat: Bool) -> Bool {
        let now = monotonicMicroseconds()
        guard ofTheSeat ? reportsOfTheSeat.admit(sender, now: now) : reports.admit(sender, now: now) else {
            if !saidReportDrops {
                saidReportDrops = true
                logger.notice("D-Bus: dropping reports of the application in front from \(printable(sender, limit: 32)) unanswered: more than 10 a second from a caller, or 50 from all (those dropped next are counted once a minute)")
            }
            return false
        }
        return true
    }

    /// A held call (its sender and serial alone), once dbus-daemon has said who sent it
    /// (nil: it did not, in time). Its arguments were let go when it came: a caller the
    /// seat refuses has its refusal, one it may take is asked to call again, known now.
    private func judged(_ call: OpaquePointer, _ caller: BusCaller?) {
        let sender = SDBus.sender(call)
        guard let caller else {
            return Self.answer(call, BusControlError("AccessDenied", "the bus did not say who the caller is"))
        }
        let ofTheSeat = control?.mayReport(caller) == true
        guard admitsReport(from: sender, ofTheSeat: ofTheSeat) else { return }
        guard ofTheSeat else { return SDBus.handle(call) { call, error in self.call(call, error: error) } }
        Self.answer(call, BusControlError(Self.askAgain, "gestured knows who calls now; call again"))
    }

    /// The error that asks a caller held while the bus said who it is to call again.
    static let askAgain = "AskAgain"

    /// Whether an answer's error (its name) asks the caller to call again.
    static func asksAgain(_ errorName: String) -> Bool { errorName == "\(interface).Error.\(askAgain)" }
}
