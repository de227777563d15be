import ArgumentParser
import Input
import Reports
import SystemIO
import TouchCore

struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Score the gestures on labelled recordings: a confusion table with recall and precision.",
        discussion: """
            MANIFEST is a CSV file with a header naming the columns 'file' and 'label'; \
            files are relative to it. For each recording, the first gesture that fires is \
            compared with its label ('none' when nothing fires), so name each gesture as \
            the label it should produce.
            """
    )

    @OptionGroup var config: ConfigOption

    @Option(help: "Output format: text (a table) or jsonl (one object per expected label).")
    var format = OutputFormat.text

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
        let evaluation = Evaluator(config: configuration).evaluate(rows, load: { path throws(FileError) in try Recording.load(path) },
                                                                   progress: { progress.update(done: $0, total: $1) }) { error in
            problems += 1
            printError(error.description)
        }
        progress.finish()
        let output = OutputBuffer()
        for line in evaluation.report(format: format, gestureNames: gestures.map(\.name)) { output.write(line: line) }
        output.flush()
        if problems > 0 { throw ExitCode.failure }
    }
}

/// A whole file, or a located error.
func readFile(_ path: String) throws(FileError) -> [UInt8] {
    do { return try Files.read(path) } catch { throw FileError(path: path, message: "cannot read: \(error)") }
}
