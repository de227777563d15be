import Bindings
import CSystemd
@testable import Effects
import Glibc
import Gestures
import Logging
import Pipeline
import SystemIO
import Testing
import TouchCore

/// The last overlay, Progress or inspector update is never lost to a full bus: while
/// sd-bus holds what it cannot write, those in between are let go, the latest kept and
/// sent once there is room. The bus here is this test's: a socket that takes the
/// connection and says nothing until the updates are sent (so sd-bus holds them all,
/// as it does when dbus-daemon stops reading), then answers as a bus and reads.
@Suite(.serialized) struct LatestUpdatesTests {
    /// An overlay update whose one finger says which it is; the last, the lift, has none.
    static func frame(_ n: Int) -> FeedbackFrame {
        FeedbackFrame(panel: "/dev/input/event5", output: nil, fingers: n == 99 ? [] : [Point(x: Double(n) / 100, y: 0.5)],
                      lead: FeedbackLead(gesture: "drag", progress: 0, verdict: .deciding))
    }

    @Test func theServicesLastUpdatesGoOutWhenTheBusHasRoom() throws {
        let bus = try SilentBus()
        let service = BusService(kind: .session, logger: Logger(label: "test"))
        #expect(service.connect(now: 0))
        for n in 0..<100 {
            service.feedback(Self.frame(n), to: ":1.7")
            service.progress(ProgressUpdate(gesture: "drawer", tag: "drawer", progress: Double(n) / 100, phase: n == 99 ? .ended : .changed),
                             to: ":1.7")
        }
        #expect(service.hasQueuedOutput)
        let heard = try bus.serve { service.process(now: monotonicMicroseconds()) }
        Self.expectTheLastOfEach(heard)
    }

    @Test func theAgentsLastUpdatesGoOutWhenTheBusHasRoom() throws {
        let bus = try SilentBus()
        let relay = AgentRelay(logger: Logger(label: "test"))
        #expect(relay.start())
        for n in 0..<100 {
            relay.feedback(Self.frame(n), to: "org.gnome.Shell")
            relay.progress(ProgressUpdate(gesture: "drawer", tag: "drawer", progress: Double(n) / 100, phase: n == 99 ? .ended : .changed))
        }
        let heard = try bus.serve { relay.process() }
        Self.expectTheLastOfEach(heard)
    }

    /// Some updates were let go, none came after a newer one, and each stream's last came.
    static func expectTheLastOfEach(_ heard: [HeardUpdate]) {
        let frames = heard.compactMap { if case .feedback(let frame) = $0 { frame } else { nil } }
        let progress = heard.compactMap { if case .progress(let update) = $0 { update } else { nil } }
        #expect(frames.count < 100 && progress.count < 100, "the bus held them all: nothing was let go")
        let xs = frames.map { $0.fingers.first?.x ?? 1 }
        #expect(xs == xs.sorted(), "an older overlay update came after a newer one")
        #expect(frames.last?.fingers.isEmpty == true, "the lift did not come: \(frames.last.map { "\($0.fingers)" } ?? "none")")
        #expect(progress.map(\.progress) == progress.map(\.progress).sorted())
        #expect(progress.last?.progress == 0.99 && progress.last?.phase == .ended,
                "the swipe's end did not come: \(progress.last.map { "\($0.progress) \($0.phase)" } ?? "none")")
    }
}

enum HeardUpdate {
    case feedback(FeedbackFrame)
    case progress(ProgressUpdate)
}

/// A session bus that takes connections and answers nothing until `serve`: then it is one
/// (sd-bus's server side), answering Hello, AddMatch and RequestName, and hears the
/// updates sent to it. DBUS_SESSION_BUS_ADDRESS names it while it lives.
private final class SilentBus {
    private let directory: String
    private let listener: Int32
    private var server: OpaquePointer?
    private var heard: [HeardUpdate] = []
    private let address: String?

    struct Failed: Error { var what: String }

    init() throws {
        var template = Array("/tmp/gestured-bus-test.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failed(what: "mkdtemp") }
        directory = String(cString: made)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.listener = listener
        var name = sockaddr_un()
        name.sun_family = sa_family_t(AF_UNIX)
        let path = directory + "/bus"
        withUnsafeMutableBytes(of: &name.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &name) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard listener >= 0, bound == 0, listen(listener, 4) == 0 else { throw Failed(what: "listen on \(path)") }
        address = getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
        setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=\(path)", 1)
    }

    deinit {
        if let address { setenv("DBUS_SESSION_BUS_ADDRESS", address, 1) } else { unsetenv("DBUS_SESSION_BUS_ADDRESS") }
        if let server { sd_bus_close_unref(server) }
        close(listener)
        unlink(directory + "/bus")
        rmdir(directory)
    }

    /// Takes the connection and serves it, calling `client` (the connection's own
    /// processing) in turn, until nothing more comes for half a second; what it heard.
    func serve(_ client: () -> Void) throws -> [HeardUpdate] {
        let fd = accept(listener, nil, nil)
        var id = sd_id128_t()
        var bus: OpaquePointer?
        guard fd >= 0, sd_id128_randomize(&id) >= 0, sd_bus_new(&bus) >= 0, let bus else { throw Failed(what: "accept") }
        server = bus
        guard sd_bus_set_fd(bus, fd, fd) >= 0, sd_bus_set_server(bus, 1, id) >= 0,
              sd_bus_add_filter(bus, nil, { m, userdata, _ in
                  guard let m, let userdata else { return 0 }
                  return Unmanaged<SilentBus>.fromOpaque(userdata).takeUnretainedValue().take(m)
              }, Unmanaged.passUnretained(self).toOpaque()) >= 0,
              sd_bus_start(bus) >= 0 else { throw Failed(what: "serve") }
        var quiet = 0
        while quiet < 500 {
            let before = heard.count
            client()
            while sd_bus_process(bus, nil) > 0 {}
            quiet = heard.count == before ? quiet + 1 : 0
            usleep(1000)
        }
        return heard
    }

    /// Answers a call (Hello with a name, RequestName with "the primary owner"), keeps an update.
    private func take(_ m: OpaquePointer) -> Int32 {
        if sd_bus_message_is_method_call(m, nil, nil) > 0 {
            var reply: OpaquePointer?
            guard sd_bus_message_new_method_return(m, &reply) >= 0, let reply else { return 1 }
            defer { SDBus.unref(reply) }
            switch SDBus.member(m) {
            case "Hello": _ = SDBus.append(reply, ":1.1")
            case "RequestName": _ = SDBus.append(reply, UInt32(1))
            default: break
            }
            _ = SDBus.send(server!, reply)
        } else if SDBus.member(m) == FeedbackFrame.member, let frame = FeedbackFrame.read(from: m) {
            heard.append(.feedback(frame))
        } else if SDBus.member(m) == ProgressUpdate.member, let update = ProgressUpdate.read(from: m) {
            heard.append(.progress(update))
        }
        return 1
    }
}
