import ArgumentParser
import Config
import Daemon
import Input
import Loop
import SystemIO
import Logging

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon: recognize gestures and run their bindings.",
        discussion: """
            It reads every touchscreen udev reports (ID_INPUT_TOUCHSCREEN=1), those plugged \
            in later too, and waits, saying so once, while there is none; reading them \
            needs read access to /dev/input/event* (root, the input group, or the service). \
            With [daemon] isolate = true it grabs each one and hands applications a uinput \
            twin with only the touches no gesture takes (needs write access to /dev/uinput).
            On the bus it owns org.gestured.Gestured1: the Gesture signal, and the control \
            interface (SetMode, Pause, Resume, Reload, ReportApp; the properties Mode, Modes, \
            Paused, Locked, Gestures, Devices, Rotation, App; see `gestured status`): \
            ReportApp(source, app id, WM_CLASS class, instance) is how a desktop says which \
            application is in front, for gestures with apps (gestured.toml(5)); a report \
            stands while its caller stays on the bus. It follows logind's \
            LockedHint (seat0's active session; with --bus session, the user's own \
            session): while locked only gestures with when_locked = true fire.
            With --replay, a recording stands in for a touchscreen (several: each its own, \
            on one seat; --timeline adds what else happens, as `replay --timeline` reads \
            it), played at its recorded \
            pace (--speed times faster) through the real loop: timers, arbitration, \
            commands, D-Bus signals, SIGHUP reloads. The daemon then exits 0 once the \
            recording has ended, its last decisions are made and started commands have \
            finished. SIGTERM or SIGINT stop it; SIGHUP re-reads the configuration (one \
            with errors is rejected and the running one stays).
            --print writes each step to stdout as it is made, as `replay --explain --actions --twin` \
            prints it: the same steps replay makes of a recording, the daemon's timers \
            and all, so `run --replay R --print` and `replay --explain --actions --twin R` agree \
            line for line.
            Exit status: 0 when stopped or the replay is done; 78 when the configuration \
            is refused at start (its errors are printed; the units do not restart on it); \
            1 for any other failure.
            """
    )

    @OptionGroup var config: ConfigOption

    @Option(help: ArgumentHelp("Replay this recording instead of reading touchscreens; repeat it for several on one seat (a pen and its panel).", valueName: "RECORDING"))
    var replay: [String] = []

    @Option(help: ArgumentHelp("With --replay: what else happens to the seat, as `replay --timeline` reads it.", valueName: "FILE"))
    var timeline: String?

    @Option(help: "With --replay: play N times faster than recorded (more than 0, at most 10000).")
    var speed = 1.0

    @Option(help: "With --replay: play it N times back to back, a second apart (for long runs).")
    var `repeat` = 1

    @Option(help: "The D-Bus bus for signals: system, session or none (default: the configuration's).")
    var bus: DaemonSettings.Bus?

    @Flag(name: .customLong("print"), help: "Print every step to stdout as it is made, as `replay --explain --actions --twin` prints it: recognizer decisions, gesture events, actions, what the twin, the keyboard and the pointer are given.")
    var printSteps = false

    @OptionGroup var printing: PrintOptions

    @Flag(help: "Log every recognizer decision with its reason, how each command started (directly or with /bin/sh -c), and what an isolated panel's twin is given.")
    var verbose = false

    /// EX_CONFIG (sysexits.h): the units tell systemd not to restart into the same file.
    static let configurationRefused = ExitCode(78)

    func validate() throws {
        guard speed > 0, speed <= 10_000 else { throw ValidationError("--speed must be more than 0 and at most 10000") }
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be at least 1") }
        if timeline != nil, replay.isEmpty { throw ValidationError("--timeline goes with --replay") }
        if timeline != nil, `repeat` > 1 { throw ValidationError("--repeat plays recordings again, not a timeline: leave out one of them") }
        if !printSteps, printing.touches || printing.format != .text { throw ValidationError("--touches and --format go with --print") }
    }

    func run() throws {
        // Bus peers' messages (up to the bus's 32 MB) are let go whole once handled.
        Allocator.unmapLargeBlocksWhenFreed()
        var options = DaemonOptions()
        options.configPath = config.config
        if !replay.isEmpty { options.source = .recordings(paths: replay, timeline: timeline, speed: speed, rounds: `repeat`) }
        options.bus = bus
        options.logLevel = verbose ? .debug : nil
        if printSteps {
            let watcher = StepWatcher(printing, showActions: true)
            options.show = { watcher.show($0) }
        }
        let daemon: Daemon
        do {
            daemon = try Daemon(options: options)
        } catch let error as ConfigErrors {
            printError("\(error)")
            throw Self.configurationRefused
        } catch let error as ConfigSafety.Unsafe {
            printError("\(error)")
            throw Self.configurationRefused
        } catch {
            printError("\(error)")
            throw ExitCode.failure
        }
        let status = daemon.run()
        if status != 0 { throw ExitCode(status) }
    }
}

extension DaemonSettings.Bus: @retroactive ExpressibleByArgument {}
