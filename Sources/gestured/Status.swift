import ArgumentParser
import Effects
import Gestures
import SystemIO
import TouchCore

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the running daemon's mode, pause, locks, application in front, devices and gestures.",
        discussion: """
            Reads the control interface's properties (org.gestured.Gestured1 on the bus): \
            the mode and the modes there are, whether gestures are paused or the session \
            locked (then only gestures with when_locked fire), whether touch is locked (then \
            no touch reaches applications, and only the gestures that unlock it fire), the display's rotation \
            (from iio-sensor-proxy, or set on the bus), the application in front and which \
            desktop said so (gestures with apps fire only for theirs), the touchscreens read with the \
            rotation each measures in (and which are isolated), and each gesture with the modes it fires in: why a \
            gesture does not fire right now. Without --bus, the system bus first, then the \
            session bus. Anyone may read them; changing them (SetMode, Pause, Resume, \
            LockTouch, UnlockTouch, Reload, setting Rotation) takes root or the gestured-control group on the \
            system bus, e.g. \
            busctl call org.gestured.Gestured1 /org/gestured/Gestured1 \
            org.gestured.Gestured1 SetMode s maintenance.
            """
    )

    @Option(help: ArgumentHelp("The bus the daemon is on: system or session.", valueName: "BUS"))
    var bus: BusChoice?

    enum BusChoice: String, ExpressibleByArgument, CaseIterable {
        case system, session
    }

    func run() throws {
        let kinds: [BusService.Kind] = switch bus {
        case .system: [.system]
        case .session: [.session]
        case nil: [.system, .session]
        }
        var failures: [String] = []
        for kind in kinds {
            do {
                print(Self.text(try ControlClient.read(kind), on: kind), terminator: "")
                return
            } catch {
                failures.append("the \(kind) bus: \(error)")
            }
        }
        printError("gestured status: no running gestured answers (\(failures.joined(separator: "; ")))")
        throw ExitCode.failure
    }

    /// The session in front of seat0, its agent, and whose gestures are in force.
    static func lines(_ session: ControlProperties.Session, gestures: Int) -> [String] {
        let user = Users.name(of: session.uid).map { "\(printable($0, limit: 64)) (uid \(session.uid))" } ?? "uid \(session.uid)"
        let owner = Users.name(of: session.uid).map { "\(printable($0, limit: 64))'s" } ?? "its user's"
        return ["session:  \(printable(session.id, limit: 64)) of \(user), in front of seat0",
                "agent:    " + (session.agent ? "there (\(session.file.isEmpty ? "no file" : printable(session.file, limit: 256))): runs its user's commands"
                    : "none: its user's commands are skipped (start gestured agent in the session)"),
                "in force: the machine's \(gestures - session.userGestures) gestures and \(owner) \(session.userGestures)"]
    }

    static func text(_ p: ControlProperties, on kind: BusService.Kind) -> String {
        var lines = ["gestured on the \(kind) bus",
                     "mode:     \(p.mode) (modes: \(p.modes.joined(separator: ", ")))",
                     "paused:   \(p.paused ? "yes: every touch passes through, nothing fires" : "no")",
                     "locked:   \(p.locked ? "yes: only gestures with when_locked = true fire" : "no")",
                     "touch:    \(p.touchLocked ? "locked: no touch reaches applications, and only gestures with touch_lock = \"unlock\" or \"toggle\" fire (or UnlockTouch on the bus)" : "not locked")",
                     "rotation: \(p.rotation)° clockwise (the display's, for panels whose rotation is auto or external)",
                     "app:      \(p.app.map { "\($0.description) (from \($0.source))" } ?? "not known (no desktop says; gestures with apps do not fire)")",
                     "devices:\(p.devices.isEmpty ? "  none" : "")"]
        if let session = p.session { lines.insert(contentsOf: Self.lines(session, gestures: p.gestures.count), at: 1) }
        for device in p.devices {
            lines.append("  \(device.node)  \(device.name)  \(device.rotation)°\(device.isolated ? "  (isolated)" : "")\(device.screen.isEmpty ? "" : "  screen: \(printable(device.screen))")")
        }
        lines.append("gestures:\(p.gestures.isEmpty ? " none" : "")")
        let width = min(p.gestures.map(\.name.count).max() ?? 0, 32)
        for g in p.gestures {
            let fires = GestureSpec.fires(modes: g.modes, inMode: p.mode)
            let padded = g.name.count < width ? g.name + String(repeating: " ", count: width - g.name.count) : g.name
            lines.append("  \(padded)  \(g.type)  modes: \(g.modes.joined(separator: ", "))\(fires ? "" : "  (not in this mode)")")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
