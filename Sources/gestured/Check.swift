import ArgumentParser
import Input
import SystemIO

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate configuration files: exits 0 when all are good, 1 otherwise.",
        discussion: """
            Errors name the file, the line and the key (gesture[3] is the third [[gesture]]). \
            The checks are those of `gestured run`: as root, the file and every directory \
            on the way to it (symbolic links too) must be root's and not writable by \
            others, and [daemon] user must exist. With --user, each file is a user's own \
            (~/.config/gestured/gestured.toml, for the session agent): gestures, regions \
            and modes; what belongs to the machine's configuration ([daemon] settings but \
            mode, modes and mode_timeout_s; [[device]] rules; when_locked) is refused at its line.
            """
    )

    @Flag(help: "Check the files as users' own configurations, not the machine's.")
    var user = false

    @Argument(help: ArgumentHelp("Configuration files.", valueName: "FILE"))
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            do {
                let (config, warnings) = user ? (try loadConfiguration(file, scope: .user), []) : try loadDaemonConfiguration(file)
                for warning in warnings { printError(warning) }
                print("\(file): ok (\(config.gestures.count) gestures, \(config.regions.count) regions, \(config.devices.count) devices)")
            } catch {
                printError("\(error)")
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}
