import ArgumentParser
import Daemon
import Loop
import Pipeline
import Reports
import SystemIO
import TouchCore

struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Watch touchscreens live: each recognizer decision with its reason, and the gestures that fire.",
        discussion: """
            Reads every touchscreen (or --device NODE) as the daemon would, with the same \
            configuration, and prints one line per recognizer state change with its reason \
            in words and units (why a gesture did not fire), per gesture event, and with \
            --touches per touch phase, and each mode switch, pause, lock and touch lock change with \
            its reason (its gestures', logind's, and the running service's, which it \
            follows on the bus its configuration names). It only reads: it grabs nothing and runs no command \
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

    @OptionGroup var printing: PrintOptions

    @Option(help: ArgumentHelp("Draw the last touch sequence to this SVG file, rewritten as each one ends.", valueName: "FILE"))
    var svg: String?

    func run() throws {
        var options = DaemonOptions()
        options.configPath = config.config
        options.source = .touchscreens(only: device)
        options.mode = .monitor
        let watcher = StepWatcher(printing, showActions: false, svg: svg)
        options.show = { watcher.show($0) }
        let daemon: Daemon
        do { daemon = try Daemon(options: options) } catch {
            printError("\(error)")
            throw ExitCode.failure
        }
        let status = daemon.run()
        if status != 0 { throw ExitCode(status) }
    }
}
