import ArgumentParser
import GesturedKit

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
            recognizer's state changes with their reasons.
            Exits 1 when a recording is malformed, after replaying the others.
            """
    )

    @OptionGroup var config: ConfigOption

    @Flag(help: "Print one line per touch phase change.")
    var touches = false

    @Flag(help: "Print every recognizer state change with its reason: why a gesture did or did not fire.")
    var explain = false

    @Option(help: "Output format: text or jsonl (one JSON object per line).")
    var format = OutputFormat.text

    @Option(help: ArgumentHelp("The device description for events-only recordings.", valueName: "DESC"))
    var device: String?

    @Argument(help: ArgumentHelp("evemu recordings (.evemu, .events)", valueName: "RECORDING"))
    var recordings: [String]

    func run() throws {
        let replayer = Replayer(config: try config.load())
        replayer.showTouches = touches
        replayer.playback.explain = explain
        replayer.format = format
        replayer.devicePath = device
        var failed = false
        for path in recordings where !replayer.replay(path) { failed = true }
        if failed { throw ExitCode.failure }
    }
}
