import ArgumentParser
import Reports

/// How steps are printed, one line each: replay, monitor and `run --print`.
struct PrintOptions: ParsableArguments {
    @Flag(help: "Print one line per touch phase change too.")
    var touches = false

    @Option(help: "Output format: text or jsonl (one JSON object per line).")
    var format = OutputFormat.text
}

extension OutputFormat: @retroactive ExpressibleByArgument {}
