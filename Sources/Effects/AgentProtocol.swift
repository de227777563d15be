import Bindings
import CSystemd
import Gestures
import Pipeline
import TouchCore

/// The messages of org.gestured.Gestured1 that pass between the system service, the
/// sessions' agents and the desktops' reporters, each typed once: its member, its
/// arguments' signature, and how it is written and read, here alone. The signatures are
/// those the objects declare in C (shim.h); `AgentProtocolTests` checks each against them
/// and reads back what each writes.
protocol GesturedMessage {
    static var member: String { get }
    /// Its arguments' D-Bus signature.
    static var signature: String { get }
    /// Its arguments appended to `message`; false when one could not be.
    func write(into message: OpaquePointer) -> Bool
}

/// One a peer sends: read within its bounds, nil when the arguments are not its own.
protocol ReadableGesturedMessage: GesturedMessage {
    static func read(from message: OpaquePointer) -> Self?
}

extension GesturedMessage {
    /// The signal on `bus` from gestured's object (to unref), addressed to `destination`
    /// alone when one is given; nil when it could not be made.
    func signal(on bus: OpaquePointer, from path: String = BusService.path, _ interface: String = BusService.interface,
                to destination: String? = nil) -> OpaquePointer? {
        guard let message = SDBus.newSignal(bus, path, interface, Self.member) else { return nil }
        guard destination.map({ SDBus.address(message, to: $0) }) ?? true, write(into: message) else {
            SDBus.unref(message)
            return nil
        }
        return message
    }
}

extension BusQuestion where Answer == Void {
    /// One of the service's own methods, asked as a peer's is: its answer says only
    /// whether it was taken (an error reply says why not).
    static func gestured(_ message: some GesturedMessage) -> Self {
        Self(destination: BusService.name, path: BusService.path, interface: BusService.interface, member: type(of: message).member,
             write: message.write(into:), read: { _ in () })
    }
}

/// Gesture (name, type, phase, the other fields in a dictionary): every listener's, on the
/// service's bus and, from a session's agent, on the session bus. For a step crossed, its
/// `step` (+1, −1) and `steps` (net).
struct GestureSignal: GesturedMessage {
    static let member = "Gesture"
    static let signature = "sssa{sv}"
    var event: GestureEvent
    var device: String
    var step: StepCount?

    func write(into message: OpaquePointer) -> Bool {
        let strings = GestureFields.strings(event)
        return strings.prefix(3).allSatisfy { SDBus.append(message, $0.1) } && SDBus.container(message, "a", "{sv}") {
            var ok = SDBus.entry(message, "fingers", "i") { SDBus.append(message, Int32(clamping: event.fingers)) }
            for (key, value) in strings.dropFirst(3) { ok = ok && SDBus.entry(message, key, "s") { SDBus.append(message, value) } }
            for (key, value, _) in GestureFields.numbers(event) { ok = ok && SDBus.entry(message, key, "d") { SDBus.append(message, value) } }
            ok = ok && SDBus.entry(message, "device", "s") { SDBus.append(message, device) }
            if let step {
                ok = ok && SDBus.entry(message, "step", "i") { SDBus.append(message, Int32(clamping: step.delta)) }
                    && SDBus.entry(message, "steps", "i") { SDBus.append(message, Int32(clamping: step.net)) }
            }
            return ok
        }
    }
}

/// AppWanted: the service asks the agents and reporters to say again what they know.
struct AppWanted: GesturedMessage {
    static let member = "AppWanted"
    static let signature = ""

    func write(into message: OpaquePointer) -> Bool { true }
}

/// Act (binding, kind, environment): to one agent alone, which of its user's bindings
/// fired, for its command or its signal, with the gesture's `GESTURE_*` variables.
struct Act: ReadableGesturedMessage, Equatable {
    static let member = "Act"
    static let signature = "ssas"
    /// The variables: a few dozen at most, each a name and a short value.
    static let mostVariables = 64
    static let longestVariable = 4096
    var binding: String
    var kind: AgentAction.Kind
    var environment: [String]

    func write(into message: OpaquePointer) -> Bool {
        SDBus.append(message, binding) && SDBus.append(message, kind.rawValue) && SDBus.append(message, strings: environment)
    }

    static func read(from message: OpaquePointer) -> Act? {
        guard let binding = SDBus.readString(message, limit: 256), let kind = SDBus.readString(message).flatMap(AgentAction.Kind.init(rawValue:)),
              let environment = SDBus.readStrings(message, most: mostVariables, limit: longestVariable),
              environment.allSatisfy({ $0.hasPrefix("GESTURE_") && $0.contains("=") }) else { return nil }
        return Act(binding: binding, kind: kind, environment: environment)
    }
}

/// Feedback (panel, output, gesture, progress, verdict, fingers as x, y pairs over the
/// output): the service's to the agent of the session in front, an agent's to GNOME
/// Shell. Read only within the panel (at most ten fingers), a progress from 0 to 1 and
/// a verdict the reader knows.
extension FeedbackFrame: ReadableGesturedMessage {
    static let member = "Feedback"
    static let signature = "sssdsad"

    func write(into message: OpaquePointer) -> Bool {
        SDBus.append(message, panel) && SDBus.append(message, output ?? "") && SDBus.append(message, lead.gesture ?? "")
            && SDBus.append(message, lead.progress) && SDBus.append(message, lead.verdict.rawValue)
            && SDBus.container(message, "a", "d") { fingers.allSatisfy { SDBus.append(message, $0.x) && SDBus.append(message, $0.y) } }
    }

    static func read(from message: OpaquePointer) -> FeedbackFrame? {
        guard let panel = SDBus.readString(message, limit: 256), let output = SDBus.readString(message, limit: 256),
              let gesture = SDBus.readString(message, limit: 256), let progress = SDBus.readDouble(message), (0...1).contains(progress),
              let verdict = SDBus.readString(message).flatMap(FeedbackLead.Verdict.init(rawValue:)),
              let xy = SDBus.readDoubles(message, most: 20), xy.count % 2 == 0, xy.allSatisfy({ (0...1).contains($0) }) else { return nil }
        let fingers = stride(from: 0, to: xy.count, by: 2).map { Point(x: xy[$0], y: xy[$0 + 1]) }
        return FeedbackFrame(panel: panel, output: output.isEmpty ? nil : output, fingers: fingers,
                             lead: FeedbackLead(gesture: gesture.isEmpty ? nil : gesture, progress: progress, verdict: verdict))
    }
}

/// Progress (gesture, tag, progress from 0 to 1, phase): the service's to the agent of the
/// session in front alone, which says it again on its session bus; read only with a
/// progress in 0…1 and a phase a continuous gesture has.
extension ProgressUpdate: ReadableGesturedMessage {
    static let member = "Progress"
    static let signature = "ssds"

    func write(into message: OpaquePointer) -> Bool {
        SDBus.append(message, gesture) && SDBus.append(message, tag) && SDBus.append(message, progress) && SDBus.append(message, phase.rawValue)
    }

    static func read(from message: OpaquePointer) -> ProgressUpdate? {
        guard let gesture = SDBus.readString(message, limit: 256), let tag = SDBus.readString(message, limit: 64),
              let progress = SDBus.readDouble(message), (0...1).contains(progress),
              let phase = SDBus.readString(message, limit: 16).flatMap(GesturePhase.init(rawValue:)), phase != .recognized else { return nil }
        return ProgressUpdate(gesture: gesture, tag: tag, progress: progress, phase: phase)
    }
}

/// Inspect (on, dry or off): a process of the user in front asks to watch the gestures
/// being decided, with its user's actions held back (dry), or no more (see `Inspector`).
struct InspectCall: ReadableGesturedMessage, Equatable {
    static let member = "Inspect"
    static let signature = "s"
    var request: InspectRequest

    func write(into message: OpaquePointer) -> Bool { SDBus.append(message, request.rawValue) }

    static func read(from message: OpaquePointer) -> InspectCall? {
        SDBus.readString(message, limit: 8).flatMap(InspectRequest.init(rawValue:)).map(InspectCall.init)
    }
}

/// Inspection (panel, its width and height in mm, whether the fingers lifted, the application, the lead gesture, its
/// progress and verdict, the fingers as (touch id, x, y), the gestures as (name, state,
/// progress, why)): the service's to the inspector alone. Read only within the panel, at
/// most ten fingers and `InspectionDetail.mostGestures` gestures, states the reader knows.
public struct Inspection: ReadableGesturedMessage, Equatable {
    static let member = "Inspection"
    static let signature = "sddbssdsa(idd)a(ssds)"
    public var frame: FeedbackFrame
    public var detail: InspectionDetail

    func write(into message: OpaquePointer) -> Bool {
        SDBus.append(message, frame.panel) && SDBus.append(message, detail.widthMM) && SDBus.append(message, detail.heightMM)
            && SDBus.append(message, detail.over) && SDBus.append(message, detail.app ?? "")
            && SDBus.append(message, frame.lead.gesture ?? "") && SDBus.append(message, frame.lead.progress)
            && SDBus.append(message, frame.lead.verdict.rawValue)
            && SDBus.container(message, "a", "(idd)") {
                zip(detail.touches, frame.fingers).allSatisfy { id, point in
                    SDBus.container(message, "r", "idd") {
                        SDBus.append(message, Int32(truncatingIfNeeded: id)) && SDBus.append(message, point.x) && SDBus.append(message, point.y)
                    }
                }
            }
            && SDBus.container(message, "a", "(ssds)") {
                detail.gestures.allSatisfy { gesture in
                    SDBus.container(message, "r", "ssds") {
                        SDBus.append(message, gesture.name) && SDBus.append(message, gesture.state.rawValue)
                            && SDBus.append(message, gesture.progress) && SDBus.append(message, gesture.why ?? "")
                    }
                }
            }
    }

    static func read(from message: OpaquePointer) -> Inspection? {
        guard let panel = SDBus.readString(message, limit: 256), let width = SDBus.readDouble(message), let height = SDBus.readDouble(message),
              (1...10_000).contains(width), (1...10_000).contains(height), let over = SDBus.readBool(message),
              let app = SDBus.readString(message, limit: 256), let gesture = SDBus.readString(message, limit: 256),
              let progress = SDBus.readDouble(message), (0...1).contains(progress),
              let verdict = SDBus.readString(message).flatMap(FeedbackLead.Verdict.init(rawValue:)),
              SDBus.enter(message, "a", "(idd)") else { return nil }
        var ids: [Int] = [], fingers: [Point] = []
        while SDBus.enter(message, "r", "idd") {
            guard ids.count < 10, let id = SDBus.readInt32(message), let x = SDBus.readDouble(message), let y = SDBus.readDouble(message),
                  (0...1).contains(x), (0...1).contains(y), SDBus.exit(message) else { return nil }
            ids.append(Int(id))
            fingers.append(Point(x: x, y: y))
        }
        guard SDBus.exit(message), SDBus.enter(message, "a", "(ssds)") else { return nil }
        var gestures: [InspectionDetail.Gesture] = []
        while SDBus.enter(message, "r", "ssds") {
            guard gestures.count < InspectionDetail.mostGestures, let name = SDBus.readString(message, limit: 256),
                  let state = SDBus.readString(message, limit: 16).flatMap(RecognizerState.init(rawValue:)),
                  let progress = SDBus.readDouble(message), (0...1).contains(progress), let why = SDBus.readString(message, limit: 1024),
                  SDBus.exit(message) else { return nil }
            gestures.append(InspectionDetail.Gesture(name: name, state: state, progress: progress, why: why.isEmpty ? nil : why))
        }
        guard SDBus.exit(message) else { return nil }
        let detail = InspectionDetail(touches: ids, gestures: gestures, over: over, app: app.isEmpty ? nil : app, widthMM: width, heightMM: height)
        return Inspection(frame: FeedbackFrame(panel: panel, output: nil, fingers: fingers,
                                               lead: FeedbackLead(gesture: gesture.isEmpty ? nil : gesture, progress: progress, verdict: verdict),
                                               detail: detail),
                          detail: detail)
    }
}

/// ReportApp's arguments as they came: the reporter's name for itself, the app id, the
/// WM_CLASS class and instance; empty for what it has not (all empty: none in front).
public struct AppReport: Equatable, Sendable {
    public var source, appID, windowClass, instance: String
    /// A field was longer than `AppInFront.longestName`: the fields are left empty.
    public var tooLong = false
    /// Who called, as the bus vouches for it (on the system bus); nil when it did not say.
    public var caller: BusCaller?

    public init(source: String, appID: String, windowClass: String, instance: String) {
        self.source = source
        self.appID = appID
        self.windowClass = windowClass
        self.instance = instance
    }

    /// What stands for the report of a caller that is refused whoever it names: nothing read.
    static let unread = AppReport(source: "", appID: "", windowClass: "", instance: "")

    /// The application it names, said by `source`; nil when all its names are empty.
    public func app(source: String) -> AppInFront? {
        func named(_ text: String) -> String? { text.isEmpty ? nil : text }
        guard !(appID.isEmpty && windowClass.isEmpty && instance.isEmpty) else { return nil }
        return AppInFront(appID: named(appID), windowClass: named(windowClass), instance: named(instance), source: source)
    }
}


/// ReportApp (source, app id, WM_CLASS class, instance): each field read whole, or, one
/// longer than `AppInFront.longestName`, none (`tooLong`).
extension AppReport: ReadableGesturedMessage {
    static let member = "ReportApp"
    static let signature = "ssss"

    func write(into message: OpaquePointer) -> Bool {
        [source, appID, windowClass, instance].allSatisfy { SDBus.append(message, $0) }
    }

    static func read(from message: OpaquePointer) -> AppReport? {
        var fields: [(text: String, tooLong: Bool)] = []
        for _ in 0..<4 {
            guard let field = SDBus.readWholeString(message, atMost: AppInFront.longestName) else { return nil }
            fields.append(field)
        }
        var report = AppReport(source: fields[0].text, appID: fields[1].text, windowClass: fields[2].text, instance: fields[3].text)
        report.tooLong = fields.contains { $0.tooLong }
        return report
    }
}

/// ReportWindows (source, the layout as JSON: see `WindowsReport`): a source or a layout
/// longer than allowed is not read (`tooLong`).
extension WindowsReport: ReadableGesturedMessage {
    static let member = "ReportWindows"
    static let signature = "ss"

    func write(into message: OpaquePointer) -> Bool {
        SDBus.append(message, source) && SDBus.append(message, json)
    }

    static func read(from message: OpaquePointer) -> WindowsReport? {
        guard let source = SDBus.readWholeString(message, atMost: AppInFront.longestName),
              let text = SDBus.readBoundedText(message, atMost: longestLayout) else { return nil }
        guard !source.tooLong, let text else {
            var report = WindowsReport(source: "", layout: nil)
            report.tooLong = true
            return report
        }
        return decoding(source: source.text, json: text)
    }
}

/// SetUserConfiguration (file, text, the parser's document): the file's name as the agent
/// gives it, its text and document each copied only within a user's configuration's
/// bounds (beyond them, only said how large: `UserPush.oversize`).
extension UserPush: ReadableGesturedMessage {
    static let member = "SetUserConfiguration"
    static let signature = "ssay"

    func write(into message: OpaquePointer) -> Bool {
        SDBus.append(message, file) && SDBus.append(message, text) && SDBus.append(message, bytes: document)
    }

    static func read(from message: OpaquePointer) -> UserPush? {
        guard let file = SDBus.readWholeString(message, atMost: 4096), let text = SDBus.readBoundedText(message, atMost: longestText),
              let document = SDBus.readBoundedBytes(message, atMost: longestDocument) else { return nil }
        let name = file.tooLong ? "(a name too long)" : file.text
        guard let text else { return UserPush(file: name, oversize: (.text, nil)) }
        guard let bytes = document.bytes else { return UserPush(file: name, oversize: (.document, document.size)) }
        return UserPush(file: name, text: text, document: bytes)
    }
}
