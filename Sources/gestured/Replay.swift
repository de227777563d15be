import ArgumentParser
import Input
import Pipeline
import Reports
import SystemIO
import TouchCore

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay evemu recordings through the recognizers, as fast as possible.",
        discussion: """
            A recording is an evemu file with its device description (N:, I:, A: lines) or an \
            events-only file whose description is a .desc file beside it: \
            'DEVICE.1-finger-taps.events' pairs with 'DEVICE.desc'. Times are seconds from \
            the recording's first event; x and y are normalized to 0…1 (y downwards).
            Prints one line per gesture event (recognized, or began/changed/ended/cancelled \
            for continuous gestures); --touches adds the touches, --explain every \
            recognizer's state changes with their reasons (and, for a panel the configuration \
            isolates, what its twin is given: held, delivered, dropped, cancelled), --twin the \
            frames the twin gets.
            Exits 1 when a recording is malformed, after replaying the others.
            """
    )

    @OptionGroup var config: ConfigOption

    @Flag(help: "Print one line per touch phase change.")
    var touches = false

    @Flag(help: "Print every recognizer state change with its reason: why a gesture did or did not fire.")
    var explain = false

    @Flag(help: "Print what the bindings would do: the commands they would run and the signals they would emit.")
    var actions = false

    @Flag(help: "Print each frame an isolated panel's uinput twin gets ([daemon] isolate), as TYPE:CODE=VALUE in hex.")
    var twin = false

    @Option(help: "Output format: text or jsonl (one JSON object per line).")
    var format = OutputFormat.text

    @Option(help: ArgumentHelp("The device description for events-only recordings.", valueName: "DESC"))
    var device: String?

    @Argument(help: ArgumentHelp("evemu recordings (.evemu, .events)", valueName: "RECORDING"))
    var recordings: [String]

    func run() throws {
        var playback = Playback(config: try config.load())
        playback.explain = explain
        let output = OutputBuffer()
        var failed = false
        for path in recordings {
            var printer = ReplayPrinter(file: path, format: format) { output.write(line: $0) }
            printer.showTouches = touches
            printer.showActions = actions
            printer.showDelivery = explain
            printer.showTwin = twin
            do {
                try playback.play(try Recording.load(path, device: device)) { printer.print($0) }
            } catch {
                output.flush()
                printError(error.description)
                failed = true
            }
        }
        output.flush()
        if failed { throw ExitCode.failure }
    }
}
