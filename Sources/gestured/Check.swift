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
            others, and [daemon] user must exist.
            """
    )

    @Argument(help: ArgumentHelp("Configuration files.", valueName: "FILE"))
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            do {
                let (config, warnings) = try loadDaemonConfiguration(file)
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
