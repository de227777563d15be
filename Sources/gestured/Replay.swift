import ArgumentParser
import GesturedKit

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay evemu recordings through the touch decoder, as fast as possible.",
        discussion: """
            A recording is an evemu file with its device description (N:, I:, A: lines) or an \
            events-only file whose description is a .desc file beside it: \
            'DEVICE.1-finger-taps.events' pairs with 'DEVICE.desc'. Times are seconds from \
            the recording's first event; x and y are normalized to 0…1 (y downwards).
            Exits 1 when a recording is malformed, after replaying the others.
            """
    )

    @Flag(help: "Print one line per touch phase change.")
    var touches = false

    @Option(help: "Output format: text or jsonl (one JSON object per line).")
    var format = OutputFormat.text

    @Option(help: ArgumentHelp("The device description for events-only recordings.", valueName: "DESC"))
    var device: String?

    @Argument(help: ArgumentHelp("evemu recordings (.evemu, .events)", valueName: "RECORDING"))
    var recordings: [String]

    func run() throws {
        let replayer = Replayer(gestures: [])
        replayer.showTouches = touches
        replayer.format = format
        replayer.devicePath = device
        var failed = false
        for path in recordings where !replayer.replay(path) { failed = true }
        if failed { throw ExitCode.failure }
    }
}
