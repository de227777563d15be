import ArgumentParser
import Daemon
import Pipeline
import Reports
import SystemIO
import TouchCore

struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Watch touchscreens live: each recognizer decision with its reason, and the gestures that fire.",
        discussion: """
            Reads every touchscreen (or --device NODE) as the daemon would, with the same \
            configuration, and prints one line per recognizer state change with its reason \
            in words and units (why a gesture did not fire), per gesture event, and with \
            --touches per touch phase. It only reads: it grabs nothing and runs no command \
            or signal, so the service goes on beside it. A panel the running service \
            isolates reaches no other reader: monitor says so. Hotplug and SIGHUP work as \
            in the daemon; Ctrl-C ends it.
            --svg FILE draws the last touch sequence (rewritten as each one ends): the \
            panel, the traces, the gestures that fired and why the others failed.
            """
    )

    @OptionGroup var config: ConfigOption

    @Option(help: ArgumentHelp("Watch this event node only, whatever udev calls it.", valueName: "NODE"))
    var device: String?

    @Flag(help: "Print one line per touch phase change too.")
    var touches = false

    @Option(help: "Output format: text or jsonl (one JSON object per line).")
    var format = OutputFormat.text

    @Option(help: ArgumentHelp("Draw the last touch sequence to this SVG file, rewritten as each one ends.", valueName: "FILE"))
    var svg: String?

    func run() throws {
        var options = DaemonOptions()
        options.configPath = config.config
        options.onlyNode = device
        let watcher = Watcher(format: format, touches: touches, svg: svg)
        options.watch = { watcher.show($0, $1, $2) }
        let daemon: Daemon
        do { daemon = try Daemon(options: options) } catch {
            printError("\(error)")
            throw ExitCode.failure
        }
        let status = daemon.run()
        if status != 0 { throw ExitCode(status) }
    }
}

/// Prints each touchscreen's steps as they come, and keeps the picture of its last sequence.
private final class Watcher {
    let format: OutputFormat
    let touches: Bool
    let svg: String?
    let output = OutputBuffer()
    var printers: [String: ReplayPrinter] = [:]
    var pictures: [String: TouchPicture] = [:]

    init(format: OutputFormat, touches: Bool, svg: String?) {
        self.format = format
        self.touches = touches
        self.svg = svg
    }

    func show(_ node: String, _ geometry: DeviceGeometry, _ step: Step) {
        if printers[node] == nil {
            printers[node] = ReplayPrinter(file: node, format: format) { [output] in output.write(line: $0) }
            printers[node]?.showTouches = touches
        }
        printers[node]?.print(step)
        output.flush()
        guard let svg else { return }
        let beginsSequence = step.frame?.touches.contains { $0.phase == .began } ?? false
        if beginsSequence, pictures[node].map({ $0.touchesDown == 0 }) ?? true {
            pictures[node] = TouchPicture(title: node, size: geometry.size)
        }
        pictures[node]?.add(step)
        // Once the fingers are up; again for decisions made after the lift (a tap's wait).
        guard let picture = pictures[node], picture.touchesDown == 0 else { return }
        do { try Files.write(picture.svg(), toFile: svg, permissions: pictureFilePermissions) } catch {
            printError("error: \(svg): cannot write it: \(error)")
        }
    }
}
