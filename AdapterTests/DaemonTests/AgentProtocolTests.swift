import Bindings
import CSystemd
@testable import Effects
import Glibc
import Gestures
import Pipeline
import Testing
import TouchCore

/// Each message between the service, the agents and the reporters, against what the
/// objects declare in C (shim.h), and read back from what it writes: through sd-bus's own
/// messages, sealed as they would be sent.
@Suite struct AgentProtocolTests {
    nonisolated(unsafe) static let service = gestured_service_vtable(nil, nil, nil)!
    nonisolated(unsafe) static let agent = gestured_agent_vtable(nil)!

    /// What a table declares for `member`: nil for none.
    func declared(_ table: UnsafePointer<sd_bus_vtable>, _ member: String) -> String? {
        gestured_vtable_signature(table, member).map { String(cString: $0) }
    }

    @Test func eachMessageIsDeclaredInCAsItIsWritten() {
        let messages: [any GesturedMessage.Type] = [GestureSignal.self, AppWanted.self, Act.self, FeedbackFrame.self, AppReport.self,
                                                    WindowsReport.self, UserPush.self, InspectCall.self, Inspection.self, ProgressUpdate.self]
        for message in messages {
            #expect(declared(Self.service, message.member) == message.signature, "\(message.member)")
        }
        // The session agent's own object takes the reports as the service does.
        for message in [AppReport.self, WindowsReport.self] as [any GesturedMessage.Type] {
            #expect(declared(Self.agent, message.member) == message.signature, "the agent's \(message.member)")
        }
        #expect(declared(Self.service, "Nothing") == nil)
    }

    @Test func whatEachWritesHasItsSignatureAndReadsBack() throws {
        let bus = try LooseBus()
        let event = GestureEvent(name: "zoom", type: .pinch, phase: .changed, time: Timestamp(seconds: 3), fingers: 2,
                                 location: Point(x: 0.25, y: 0.75), scale: 1.5, velocity: 0.5)
        #expect(try bus.written(GestureSignal(event: event, device: "Panel", step: StepCount(delta: 1, net: 2))) == "sssa{sv}")
        #expect(try bus.written(AppWanted()) == "")
        let act = Act(binding: "back", kind: .command, environment: ["GESTURE_NAME=back", "GESTURE_FINGERS=3"])
        #expect(try bus.readBack(act) == act)
        let frame = FeedbackFrame(panel: "/dev/input/event5", output: "eDP-1", fingers: [Point(x: 0.5, y: 0.25)],
                                  lead: FeedbackLead(gesture: "check", progress: 0.5, verdict: .deciding))
        #expect(try bus.readBack(frame) == frame)
        let app = AppReport(source: "kwin", appID: "firefox", windowClass: "", instance: "")
        #expect(try bus.readBack(app) == app)
        let layout = WindowLayout(screen: .init(x: 0, y: 0, width: 1920, height: 1080),
                                  windows: [.init(frame: .init(x: 0, y: 0, width: 960, height: 1080), app: AppInFront(appID: "foot", source: "x"))],
                                  source: "kwin")
        let windows = try #require(try bus.readBack(WindowsReport(source: "kwin", layout: layout)))
        #expect(windows.layout?.screen == layout?.screen && windows.layout?.windows.map(\.frame) == layout?.windows.map(\.frame))
        #expect(windows.layout?.windows.first?.app.appID == "foot")
        let push = try #require(try bus.readBack(UserPush(file: "gestured.toml", text: "[[gesture]]\n", document: [1, 2, 3])))
        #expect(push.file == "gestured.toml" && push.text == "[[gesture]]\n" && push.document == [1, 2, 3] && push.oversize == nil)
        #expect(try bus.readBack(InspectCall(request: .dry)) == InspectCall(request: .dry))
        let pulled = ProgressUpdate(gesture: "drawer", tag: "drawer", progress: 0.4, phase: .changed)
        #expect(try bus.readBack(pulled) == pulled)
        let inspection = Self.inspection(fingerAt: Point(x: 0.5, y: 0.25), state: .failed)
        #expect(try bus.readBack(inspection) == inspection)
    }

    /// An inspector's update: one finger, a swipe that failed and why, the application.
    static func inspection(fingerAt point: Point, state: RecognizerState) -> Inspection {
        let detail = InspectionDetail(touches: [7], gestures: [.init(name: "back", state: state, progress: 0.5, why: "moved 10 mm, a swipe needs 20 mm")],
                                      over: true, app: "firefox", widthMM: 295, heightMM: 166)
        return Inspection(frame: FeedbackFrame(panel: "/dev/input/event5", output: nil, fingers: [point],
                                               lead: FeedbackLead(gesture: nil, progress: 0, verdict: .nothingMatches), detail: detail),
                          detail: detail)
    }

    @Test func whatBreaksAMessagesBoundsIsNotRead() throws {
        let bus = try LooseBus()
        // An Act whose variables are not the gesture's: nothing to run.
        #expect(try bus.readBack(Act(binding: "b", kind: .signal, environment: ["LD_PRELOAD=/tmp/x.so"])) == nil)
        // Feedback past the panel, or of a verdict not known.
        let outside = FeedbackFrame(panel: "p", output: nil, fingers: [Point(x: 1.5, y: 0)], lead: FeedbackLead(gesture: nil, progress: 0, verdict: .deciding))
        #expect(try bus.readBack(outside) == nil)
        #expect(try bus.readBack(Self.inspection(fingerAt: Point(x: 0, y: -0.5), state: .failed)) == nil)
        // A report's field longer than any name: read as too long, none of it kept.
        let long = String(repeating: "x", count: AppInFront.longestName + 1)
        let report = try #require(try bus.readBack(AppReport(source: "s", appID: long, windowClass: "", instance: "")))
        #expect(report.tooLong)
        // A configuration larger than a user's may be: only said how large.
        let large = String(repeating: "#", count: UserPush.longestText + 1)
        let push = try #require(try bus.readBack(UserPush(file: "f", text: large, document: [])))
        #expect(push.oversize?.part == .text && push.text.isEmpty)
    }
}

/// A bus never connected to a daemon: one end of a socket pair, started (and left
/// authenticating), on which messages are made, sealed and read back as a peer's.
private final class LooseBus {
    let bus: OpaquePointer
    private let other: Int32

    struct Failed: Error { var what: String }

    init() throws {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0 else { throw Failed(what: "socketpair") }
        var bus: OpaquePointer?
        guard sd_bus_new(&bus) >= 0, let bus else { throw Failed(what: "sd_bus_new") }
        self.bus = bus
        other = fds[1]
        guard sd_bus_set_fd(bus, fds[0], fds[0]) >= 0, sd_bus_start(bus) >= 0 else { throw Failed(what: "sd_bus_start") }
    }

    deinit {
        sd_bus_close_unref(bus)
        close(other)
    }

    /// The message written, sealed and rewound, to unref.
    private func sealed(_ message: some GesturedMessage) throws -> OpaquePointer {
        guard let m = SDBus.newSignal(bus, "/org/gestured/Gestured1", "org.gestured.Gestured1", type(of: message).member) else { throw Failed(what: "new") }
        guard message.write(into: m), sd_bus_message_seal(m, 1, 0) >= 0, sd_bus_message_rewind(m, 1) >= 0 else {
            SDBus.unref(m)
            throw Failed(what: "write \(type(of: message).member)")
        }
        return m
    }

    /// The signature of what the message wrote.
    func written(_ message: some GesturedMessage) throws -> String {
        let m = try sealed(message)
        defer { SDBus.unref(m) }
        return String(cString: sd_bus_message_get_signature(m, 1))
    }

    /// What a peer reading it would take; it must have written its declared signature.
    func readBack<Message: ReadableGesturedMessage>(_ message: Message) throws -> Message? {
        let m = try sealed(message)
        defer { SDBus.unref(m) }
        #expect(String(cString: sd_bus_message_get_signature(m, 1)) == Message.signature)
        return Message.read(from: m)
    }
}
