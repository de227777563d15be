import ArgumentParser
import Bindings
import Input
import Pipeline
import Reports
import SystemIO
import SystemPackage
import TouchCore

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay evemu recordings through the recognizers, as fast as possible.",
        discussion: """
            A recording is an evemu file with its device description (N:, I:, A: lines) or an \
            events-only file whose description is a .desc file beside it: \
            'DEVICE.1-finger-taps.events' pairs with 'DEVICE.desc'. Times are seconds from \
            the recording's first event; x and y are normalized to 0 to 1 (y downwards).
            Prints one line per gesture event (recognized, or began/changed/ended/cancelled \
            for continuous gestures); --touches adds the touches, --explain every \
            recognizer's state changes with their reasons (and, for a panel the configuration \
            isolates, what its twin is given: held, delivered, dropped, cancelled), --twin the \
            frames the twin, gestured's keyboard and its pointer get.
            --svg draws the recording as a picture for a browser: the panel at its aspect \
            ratio, each touch's trace (a numbered start, a square at the lift, a cross where cancelled, a dot every \
            100 ms), the gestures that fired and the reasons of the recognizers that failed.
            With several recordings, each plays on its own, and a progress bar shows on \
            stderr while stdout goes to a file or a pipe and stderr is a terminal. With \
            --together they play on one seat, merged by time (a pen and its panel, two \
            panels), as the daemon would read them together; --timeline adds what happens \
            to that seat besides: lines of "SECONDS WHAT" (see below). A hand-over or a report \
            refused is not an error: a hand-over refused is said among the lines. `run --replay` \
            takes the same recordings and timeline and prints the same lines.
            Exits 1 when a recording or the timeline is malformed (after replaying the other \
            recordings), or a timeline's request is refused (the seat goes on, as the daemon's would).
            What a timeline's line may say after its seconds:
            \(Timeline.help)
            """
    )

    @OptionGroup var config: ConfigOption

    @OptionGroup var printing: PrintOptions

    @Flag(help: "Print every recognizer state change with its reason: why a gesture did or did not fire.")
    var explain = false

    @Flag(help: "Print what the bindings would do: the commands they would run and the signals they would emit.")
    var actions = false

    @Flag(help: "Print each frame an isolated panel's uinput twin gets ([daemon] isolate), and gestured's keyboard and pointer, as TYPE:CODE=VALUE in hex.")
    var twin = false

    @Option(help: ArgumentHelp("The device description for events-only recordings.", valueName: "DESC"))
    var device: String?

    @Flag(help: "Play the recordings on one seat, merged by time: a pen and its panel, two panels.")
    var together = false

    @Option(help: ArgumentHelp("What else happens to the seat, a line each: SECONDS, then what (the words above). Implies --together.", valueName: "FILE"))
    var timeline: String?

    @Option(help: ArgumentHelp("Draw the recording to an SVG file: the panel, each touch's trace, the gestures that fired and why the others failed.", valueName: "FILE"))
    var svg: String?

    @Argument(help: ArgumentHelp("evemu recordings (.evemu, .events)", valueName: "RECORDING"))
    var recordings: [String]

    func validate() throws {
        if svg != nil, recordings.count != 1 { throw ValidationError("--svg draws one recording: give exactly one") }
        if svg != nil, together || timeline != nil { throw ValidationError("--svg draws one recording, not a seat: leave out --together and --timeline") }
    }

    func run() throws {
        if together || timeline != nil { return try playTogether() }
        let config = try config.load()
        var playback = Playback(config: config)
        playback.explain = explain || svg != nil
        let output = OutputBuffer()
        // What the seat performs besides the steps (commands, keys), as `run --print` says it.
        var performed = ReplayPrinter(file: "gestured", format: printing.format) { output.write(line: $0) }
        show(&performed)
        playback.onEffects = { [performed] in for effect in $0 { performed.print(performed: effect) } }
        var failed = false
        var progress = ProgressBar(besideOutput: true)
        defer { progress.finish() }
        for (done, path) in recordings.enumerated() {
            if recordings.count > 1 { progress.update(done: done, total: recordings.count) }
            var printer = ReplayPrinter(file: path, format: printing.format) { output.write(line: $0) }
            show(&printer)
            var picture: TouchPicture?
            do {
                let recording = try Recording.load(path, device: device)
                let rule = config.rule(for: recording.description)
                if svg != nil, let geometry = TouchscreenPipeline.geometry(recording.description, rule: rule,
                                                                           rotation: config.rotation(for: rule).rotation(display: .upright)) {
                    picture = TouchPicture(title: path, size: geometry.size)
                }
                defer { if let svg, let picture { failed = !write(picture, to: svg) || failed } }
                playback.onControl = { _, change in printer.print(change) }
                try playback.play(recording) { step in
                    printer.print(step)
                    picture?.add(step)
                }
            } catch {
                output.flush()
                progress.clear()
                printError(error.description)
                failed = true
            }
        }
        output.flush()
        if failed { throw ExitCode.failure }
    }

    /// The recordings on one seat, with the timeline's inputs: what `run --replay` prints.
    private func playTogether() throws {
        let config = try config.load()
        var playback = Playback(config: config)
        playback.explain = explain
        playback.keyCodes = { KeyCodes.libevdev }
        let output = OutputBuffer()
        var printer = SeatPrinter(format: printing.format) { output.write(line: $0) }
        show(&printer.base)
        var failed = false
        do {
            let script = try SeatScript.load(recordings, device: device, timeline: timeline)
            try playback.play(script, { printer.print($0) }) { input, refusal in
                guard case .request(_, let why, _) = input else { return }
                output.flush()
                printError("\(why): error: \(refusal)")
                failed = true
            }
        } catch {
            output.flush()
            printError("\(error)")
            failed = true
        }
        output.flush()
        if failed { throw ExitCode.failure }
    }

    /// What the flags ask to be shown.
    private func show(_ printer: inout ReplayPrinter) {
        printer.showTouches = printing.touches
        printer.showTransitions = explain
        printer.showActions = actions
        printer.showDelivery = explain
        printer.showTwin = twin
    }

    private func write(_ picture: TouchPicture, to path: String) -> Bool {
        do { try Files.write(picture.svg(), toFile: path, permissions: pictureFilePermissions) } catch {
            printError("error: \(path): cannot write it: \(error)")
            return false
        }
        return true
    }
}

/// `--svg` pictures: 0600, as recordings are: where each touch landed shows what an
/// on-screen keyboard was typed on.
let pictureFilePermissions: FilePermissions = [.ownerReadWrite]
