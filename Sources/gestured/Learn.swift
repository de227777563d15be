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
            (it only reads: a running gestured keeps working). The entry recognizes the shape anywhere on the panel and at any \
            size, turned at most 20 degrees: a stroke is recognized when it is closer to these \
            examples than to those of any other learned shape or built-in checkmark or \
            chevron bound beside it, and at least min_similarity close (1 - the angle \
            between the two strokes as vectors / 90 degrees: 1 is the same shape, one person's \
            strokes of one shape are 0.9 to 0.98 apart; 0.75 by default). Draw it 3 to 10 \
            times the way you will use it. Add `command` or `signal` to the entry.
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

    @Argument(help: "The gesture's name.")
    var name: String

    @Argument(help: ArgumentHelp("Recordings of the stroke (evemu).", valueName: "RECORDING"))
    var recordings: [String] = []

    func validate() throws {
        guard keep >= 1 else { throw ValidationError("--keep must be at least 1") }
        guard (0...1).contains(minSimilarity) else { throw ValidationError("--min-similarity must be from 0 to 1") }
        guard (1...100).contains(count) else { throw ValidationError("--count must be from 1 to 100") }
        guard recordings.isEmpty != (device == nil) else {
            throw ValidationError("give either recordings of the stroke or --device NODE to draw it on")
        }
    }

    func run() throws {
        let examples = try device.map(draw) ?? read()
        print(examples)
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
        printError("draw '\(name)' \(count) times on \(device.description.name), one finger, as you will use it")
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
            // How far each stroke is from the closest other one: what min_similarity must allow.
            let nearest = examples.indices.map { i in
                examples.indices.filter { $0 != i }.map { StrokeMatcher.similarity(examples[i], examples[$0]) }.max()
            }.compactMap { $0 }
            output.write(line: "[[gesture]]")
            output.write(line: "name = \"\(name)\"")
            output.write(line: "type = \"stroke\"")
            var note = "# gestured learn: \(kept.count) of \(examples.count) strokes kept"
            if let lowest = nearest.min() { note += "; each stroke's similarity to the closest other: \(fixed(lowest, decimals: 2)) or more" }
            output.write(line: note)
            output.write(line: "templates = [")
            for t in kept { output.write(line: "    \"\(t.text)\",") }
            output.write(line: "]")
            output.write(line: "min_similarity = \(fixed(minSimilarity, decimals: 2))")
        }
        output.flush()
    }
}
