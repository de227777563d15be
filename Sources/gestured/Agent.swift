import ArgumentParser
import Config
import Agent
import Daemon
import Effects
import Loop
import SystemIO

struct Agent: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent",
        abstract: "Hand this user's gestures to the gestured system service, run their commands, say the application in front.",
        discussion: """
            The session's hands for the system service, which reads the touchscreens but \
            cannot reach a session: the gestured-agent user unit (package gestured-user) \
            starts it with every graphical session where the service runs \
            (/run/gestured/agent); elsewhere start it from the session's autostart. It reads \
            --config (~/.config/gestured/gestured.toml), checks it as a user's \
            (gestured.toml(5); errors with their lines in the log and as a notification), \
            and hands it to gestured (SetUserConfiguration) at start, when the file \
            changes (inotify; through a link too), at SIGHUP, and whenever gestured comes on the bus or asks \
            (AppWanted); a missing file hands over none. When gestured says one of those \
            gestures fired (Act: the binding and the gesture's GESTURE_* variables, taken \
            only from the owner of org.gestured.Gestured1), it runs the binding's command \
            as this user, in this session's environment, or emits its Gesture signal on the \
            session bus (signal = true). It follows the desktop (sway, i3, \
            Hyprland, X11, other wlroots compositors), takes what the KWin script and the \
            GNOME Shell extension say on the session bus (org.gestured.Agent1's \
            ReportApp), and reports the application in front (org.gestured.Gestured1's \
            ReportApp), at most 5 times a second. gestured takes all of it only from the \
            user of seat0's active session, from that session or the user's own \
            services; a refusal is logged. SIGTERM and SIGINT end it.
            """
    )

    @Option(help: "The bus of the gestured to report to: system or session.")
    var bus: DaemonSettings.Bus = .system

    @Option(help: ArgumentHelp("This user's configuration, handed to the system service (default: $XDG_CONFIG_HOME/gestured/gestured.toml, else ~/.config/gestured/gestured.toml).", valueName: "FILE"))
    var config: String?

    @Flag(help: "Log every application change.")
    var verbose = false

    func validate() throws {
        if bus == .none { throw ValidationError("--bus is system or session: the agent reports on a bus") }
    }

    func run() throws {
        let agent: SessionAgent
        let path = config ?? SessionAgent.defaultConfigPath
        do { agent = try SessionAgent(reportingTo: bus == .session ? .session : .system, configPath: path, verbose: verbose) } catch {
            printError("gestured agent: \(error)")
            throw ExitCode.failure
        }
        let status = agent.run()
        if status != 0 { throw ExitCode(status) }
    }
}
