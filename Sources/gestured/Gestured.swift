import ArgumentParser
import GesturedKit

@main
struct Gestured: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A touchscreen gesture daemon: recognizes gestures and runs their bindings.",
        version: "0.1.0",
        subcommands: [Replay.self]
    )
}

extension OutputFormat: ExpressibleByArgument {}
