import ArgumentParser
import Config
import Input
import Reports
import SystemIO

/// `--config FILE`, or the built-in configuration: run, monitor, replay, eval, check.
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

/// How steps are printed, one line each: replay, monitor and `run --print`.
struct PrintOptions: ParsableArguments {
    @Flag(help: "Print one line per touch phase change too.")
    var touches = false

    @Option(help: "Output format: text or jsonl (one JSON object per line).")
    var format = OutputFormat.text
}

extension OutputFormat: @retroactive ExpressibleByArgument {}
