import ArgumentParser
import Input
import SystemIO

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate configuration files: exits 0 when all are good, 1 otherwise.",
        discussion: "Errors name the file, the line and the key (gesture[3] is the third [[gesture]])."
    )

    @Argument(help: ArgumentHelp("Configuration files.", valueName: "FILE"))
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            do {
                let config = try loadConfiguration(file)
                print("\(file): ok (\(config.gestures.count) gestures, \(config.regions.count) regions, \(config.devices.count) devices)")
            } catch {
                printError(error.description)
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}
