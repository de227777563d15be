import ArgumentParser
import Config
import Input
import Gestures
import Pipeline
import SystemIO
import TouchCore

struct Learn: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract: "Teach a stroke shape from recordings of it: prints a [[gesture]] entry to add to the configuration.",
        discussion: """
            Each RECORDING holds one stroke drawn with one finger (the first finger's path \
            is taken); or, with --device, draw the shape --count times on a touchscreen \
            (it only reads: a running gestured keeps working). The entry recognizes the shape anywhere on the panel, at any \
            size, begun anywhere along it and drawn either way (its points are compared as \
            a cloud): a stroke is recognized when it is closer to these examples than to \
            those of any other learned shape, at least min_similarity close (1 - the \
            distance / 12 times the spread of the examples: 0.75 by default, three spreads \
            away), and not closer to a built-in checkmark or chevron bound beside it. Draw \
            it 3 to 10 times the way you will use it. With --beside, says (on stderr) when \
            the new shape and the configuration's learned shapes are too close to tell \
            apart. Add `command` or `signal` to the entry.
            """
    )

    enum Format: String, ExpressibleByArgument {
        case toml
        /// For scripts/make-stroke-templates: PERSON SHAPE TEMPLATE lines.
        case templates
    }

    @Option(help: "Keep at most this many examples, the most typical.")
    var keep = 10

    @Option(help: "The entry's min_similarity.")
    var minSimilarity = 0.75

    @Option(help: "Output: toml (a [[gesture]] entry) or templates (PERSON NAME TEMPLATE lines).")
    var format = Format.toml

    @Option(help: ArgumentHelp("Who drew the strokes (templates output).", valueName: "PERSON"))
    var person = "-"

    @Option(help: ArgumentHelp("Learn from strokes drawn on this touchscreen instead of recordings.", valueName: "NODE"))
    var device: String?

    @Option(help: "With --device: how many strokes to draw.")
    var count = 5

    @Option(help: ArgumentHelp("Say whether the new shape can be told apart from the learned shapes of this configuration.", valueName: "FILE"))
    var beside: String?

    @Argument(help: "The gesture's name.")
    var name: String

    @Argument(help: ArgumentHelp("Recordings of the stroke (evemu).", valueName: "RECORDING"))
    var recordings: [String] = []

    func validate() throws {
        guard (1...GestureSpec.mostTemplates).contains(keep) else { throw ValidationError("--keep must be from 1 to \(GestureSpec.mostTemplates)") }
        guard (0...1).contains(minSimilarity) else { throw ValidationError("--min-similarity must be from 0 to 1") }
        guard (1...100).contains(count) else { throw ValidationError("--count must be from 1 to 100") }
        guard recordings.isEmpty != (device == nil) else {
            throw ValidationError("give either recordings of the stroke or --device NODE to draw it on")
        }
    }

    func run() throws {
        let examples = try device.map(draw) ?? read()
        if let beside { try sayConfusions(of: StrokeLearning.representatives(examples, keep: keep), beside: beside) }
        print(examples)
    }

    /// Before the shape is used: which of its examples, or of the configuration's learned
    /// shapes, would be taken for another (stderr; the entry is printed all the same).
    private func sayConfusions(of kept: [StrokeTemplate], beside path: String) throws {
        let config: Configuration
        do { config = try loadConfiguration(path) } catch {
            printError(error.description)
            throw ExitCode.failure
        }
        let confusions = StrokeLearning.confusions(of: name, examples: kept, minSimilarity: minSimilarity, beside: config.gestures)
        for line in confusions { printError("warning: \(line)") }
        if !confusions.isEmpty {
            printError("warning: '\(name)' and the shapes above are too close to tell apart: draw it otherwise, or learn it from more strokes")
        }
    }

    /// Strokes drawn on `node`, one a touch sequence, until `count` are big enough.
    private func draw(on node: String) throws -> [StrokeTemplate] {
        let device: EvdevDevice
        let pipeline: TouchscreenPipeline
        do {
            device = try EvdevDevice(path: node) { _ in }
            pipeline = try TouchscreenPipeline(device.description, config: Configuration(), kernelState: device.touchState)
        } catch {
            printError("\(node): cannot read it as a touchscreen: \(error)")
            throw ExitCode.failure
        }
        var collector = StrokeCollector()
        var examples: [StrokeTemplate] = []
        printError("draw '\(name)' \(count) times on '\(printable(device.description.name))', one finger, as you will use it")
        while examples.count < count {
            try Syscall.waitReadable(device.fd)
            var paths: [[Point]] = []
            let end = device.read { event in
                pipeline.step(.event(event)) { step in
                    if let frame = step.frame, let path = collector.add(frame, geometry: pipeline.geometry) { paths.append(path) }
                }
            }
            for path in paths where examples.count < count {
                guard let example = StrokeTemplate(shape: name, path: path), let size = Stroke(path).size, size >= 10 else {
                    printError("too small (at least 10 mm across): again")
                    continue
                }
                examples.append(example)
                printError("stroke \(examples.count) of \(count)")
            }
            if end == .removed {
                printError("\(node): the touchscreen is gone")
                throw ExitCode.failure
            }
        }
        return examples
    }

    private func read() throws -> [StrokeTemplate] {
        var examples: [StrokeTemplate] = []
        for path in recordings {
            let recording: Recording
            do { recording = try Recording.load(path) } catch {
                printError(error.description)
                throw ExitCode.failure
            }
            guard let example = StrokeLearning.stroke(of: recording, shape: name) else {
                printError(FileError(path: path, message: "no stroke: the first finger does not move (or no touchscreen)").description)
                throw ExitCode.failure
            }
            examples.append(example)
        }
        return examples
    }

    private func print(_ examples: [StrokeTemplate]) {
        let kept = StrokeLearning.representatives(examples, keep: keep)
        let output = OutputBuffer()
        switch format {
        case .templates:
            for t in kept { output.write(line: "\(person) \(name) \(t.text)") }
        case .toml:
            output.write(line: "[[gesture]]")
            output.write(line: "name = \"\(name)\"")
            output.write(line: "type = \"stroke\"")
            var note = "# gestured learn: \(kept.count) of \(examples.count) strokes kept"
            if let spread = StrokeMatcher.spread(of: kept) {
                let range = StrokeMatcher.spreadRange
                note += "; their spread: \(fixed(spread, decimals: 2)) (taken within \(fixed(Double(range.lowerBound), decimals: 1)) to \(fixed(Double(range.upperBound), decimals: 1)))"
            }
            output.write(line: note)
            output.write(line: "templates = [")
            for t in kept { output.write(line: "    \"\(t.text)\",") }
            output.write(line: "]")
            output.write(line: "min_similarity = \(fixed(minSimilarity, decimals: 2))")
        }
        output.flush()
    }
}
