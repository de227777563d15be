import ArgumentParser
import Config
import Daemon
import Effects
import SystemIO

struct Agent: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent",
        abstract: "Say which application is in front of this session to the gestured system service.",
        discussion: """
            The system service cannot reach a desktop session's sockets and bus, so gestures \
            with apps (gestured.toml(5)) need this agent in the session: the gestured-agent \
            user unit starts it with the graphical session where the running service has \
            such gestures (/run/gestured/agent). It follows the desktop as the \
            user service does (sway, i3, Hyprland, X11, other wlroots compositors) and takes what the KWin script and \
            the GNOME Shell extension say on the session bus (org.gestured.Agent1's \
            ReportApp), and reports the latest to gestured (org.gestured.Gestured1's \
            ReportApp), at most 5 times a second, again whenever gestured comes back on the \
            bus or asks (AppWanted: another session came in front). gestured takes it only \
            from the user of seat0's active session, from that session or the user's own \
            services; a refusal is logged once. \
            SIGTERM and SIGINT end it.
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
