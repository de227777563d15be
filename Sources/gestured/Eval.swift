import ArgumentParser
import Input
import Reports
import SystemIO
import TouchCore

extension EvaluationGrouping: @retroactive ExpressibleByArgument {}

struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Score the gestures on labelled recordings: a confusion table with recall and precision.",
        discussion: """
            MANIFEST is a CSV file with a header naming the columns 'file' and 'label'; \
            files are relative to it. For each recording, the first gesture that fires is \
            compared with its label ('none' when nothing fires), so name each gesture as \
            the label it should produce. Who drew each recording comes from a 'person' \
            column, or from a 'source' column's first path component; the dataset from a \
            'dataset' column, or the file name up to its first '-'. --held-out judges each \
            recording without the built-in stroke templates its own person drew, so the \
            figures are those of people the templates never saw.
            """
    )

    @OptionGroup var config: ConfigOption

    @Option(help: "Output format: text (a table) or jsonl (one object per expected label).")
    var format = OutputFormat.text

    @Option(help: "Also a row per person or per dataset: each gesture's recall, how often a 'none' recording fired one, and the worst.")
    var by: EvaluationGrouping?

    @Flag(help: "Leave out the built-in stroke templates of each recording's own person.")
    var heldOut = false

    @Flag(help: "List each recording where the wrong gesture or none fired, and why.")
    var misses = false

    @Argument(help: ArgumentHelp("The manifest (file,label[,...]).", valueName: "MANIFEST"))
    var manifest: String

    func run() throws {
        let configuration = try config.load()
        let gestures = configuration.gestures
        var problems = 0
        let rows: Manifest
        do {
            rows = try Manifest(path: manifest, text: String(decoding: try readFile(manifest), as: UTF8.self))
        } catch {
            printError(error.description)
            throw ExitCode.failure
        }
        var progress = ProgressBar()
        var evaluator = Evaluator(config: configuration)
        evaluator.heldOut = heldOut
        evaluator.listMisses = misses
        let run = evaluator.evaluate(rows, load: { path throws(FileError) in try Recording.load(path) },
                                                                   progress: { progress.update(done: $0, total: $1) }) { error in
            problems += 1
            progress.clear()
            printError(error.description)
        }
        progress.finish()
        let output = OutputBuffer()
        let names = gestures.map(\.name)
        for miss in run.misses {
            output.write(line: "\(miss.file): expected \(miss.expected), fired \(miss.fired)" + (miss.why.isEmpty ? "" : ": \(miss.why)"))
        }
        if let by {
            for line in run.report(by: by, format: format, gestureNames: names) { output.write(line: line) }
            if format == .text { output.write(line: "") }
        }
        if by == nil || format == .text {
            for line in run.all.report(format: format, gestureNames: names) { output.write(line: line) }
        }
        if heldOut, format == .text {
            output.write(line: "held out: \(run.heldOut) of \(rows.rows.count) recordings were judged without their person's built-in templates")
        }
        output.flush()
        if problems > 0 { throw ExitCode.failure }
    }
}

/// A whole manifest, or a located error.
func readFile(_ path: String) throws(FileError) -> [UInt8] {
    // A manifest of every stroke ever drawn is a few MB.
    do { return try Files.read(path, atMost: 64 << 20) } catch { throw FileError(path: path, message: "\(error)") }
}
