import ArgumentParser
import SystemIO

struct Studio: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Make and edit your gestures on the screen, with a picture of each (the gestured-studio package).",
        discussion: """
            Opens gestured-studio, a window for the user at the seat: their gestures and \
            the machine's, each drawn; a gesture made or changed with touch-sized buttons, \
            checked as `check --user` checks it (each error under its field) and saved \
            into their file changing only its own lines (comments and order stay), which \
            the session agent takes at once. It is in a package of its own, so that a \
            kiosk pulls in no toolkit.
            """
    )

    @Option(help: ArgumentHelp("Your configuration (default: $XDG_CONFIG_HOME/gestured/gestured.toml, else ~/.config/gestured/gestured.toml).",
                               valueName: "FILE"))
    var config: String?

    func run() throws {
        let studio = Files.besideProgram(installed: "gestured-studio", inBuild: "gestured-studio")
        guard Files.exists(studio) else {
            printError("gestured studio: \(studio) is not installed: it is in its own package (apt install gestured-studio)")
            throw ExitCode.failure
        }
        let why = Spawn.become([studio] + (config.map { ["--config", $0] } ?? []))
        printError("gestured studio: cannot start \(studio): \(why)")
        throw ExitCode.failure
    }
}
