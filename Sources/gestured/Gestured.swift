import ArgumentParser
import Config
import Input
import Reports
import SystemIO

@main
struct Gestured: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A touchscreen gesture daemon: recognizes gestures and runs their bindings.",
        version: "0.1.0",
        subcommands: [Run.self, Replay.self, Eval.self, Learn.self, Check.self, Devices.self, Record.self, Monitor.self]
    )
}

extension OutputFormat: @retroactive ExpressibleByArgument {}

/// `--config FILE`, or the built-in configuration.
struct ConfigOption: ParsableArguments {
    @Option(help: ArgumentHelp("The configuration file (default: the built-in one).", valueName: "FILE"))
    var config: String?

    func load() throws -> Configuration {
        guard let config else { return Configuration.makeDefault() }
        do {
            return try loadConfiguration(config)
        } catch {
            printError(error.description)
            throw ExitCode.failure
        }
    }
}
