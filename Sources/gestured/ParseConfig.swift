import ArgumentParser
import Bindings
import Config
import SystemIO
import SystemPackage

/// The helper `gestured run`, `check` and the other subcommands parse configurations in
/// (see `ConfigParse`): the bytes on stdin, the outcome on stdout. Not for people.
struct ParseConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse-config",
        abstract: "Parse a configuration from stdin for gestured itself.",
        shouldDisplay: false
    )

    @Argument(help: ArgumentHelp("The file's name, for the errors.", valueName: "FILE"))
    var file: String

    func run() throws {
        let outcome: ParseOutcome
        do {
            outcome = ParseOutcome(parsing: try Files.read(.standardInput, atMost: Configuration.maximumFileSize), file: file,
                                   keyCodes: .libevdev)
        } catch {
            outcome = .errors([ConfigError(file: file, message: "\(error)")])
        }
        let output = OutputBuffer()
        output.write(bytes: outcome.encoded)
        output.flush()
    }
}
