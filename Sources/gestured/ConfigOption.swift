import ArgumentParser
import Config
import Input
import SystemIO

/// `--config FILE`, or the built-in configuration: run, monitor, replay, eval, check.
struct ConfigOption: ParsableArguments {
    @Option(help: ArgumentHelp("The configuration file (default: the built-in one).", valueName: "FILE"))
    var config: String?

    func load() throws -> Configuration {
        do {
            guard let config else { return try loadDefaultConfiguration() }
            return try loadConfiguration(config)
        } catch {
            printError(error.description)
            throw ExitCode.failure
        }
    }
}
