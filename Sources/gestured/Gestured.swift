import ArgumentParser
import Config
import Input
import Reports
import SystemIO

@main
struct Gestured: ParsableCommand {
    // Every command names itself (`commandName`): without it the parser derives each
    // name with String(describing:), which scans all of the program's protocol
    // conformances, for every command, at every start of the daemon.
    static let configuration = CommandConfiguration(
        commandName: "gestured",
        abstract: "A touchscreen gesture daemon: recognizes gestures and runs their bindings.",
        discussion: """
            gestured reads touchscreens and their pens through libevdev, recognizes taps, presses, swipes, \
            pans, pinches, rotations, edge swipes, checkmarks, chevrons and learned strokes, \
            and runs the commands or emits the D-Bus signals (org.gestured.Gestured1) bound \
            to them in a TOML file (gestured.toml(5)). `gestured run` is the daemon; the \
            other subcommands replay recordings, score, teach strokes, check files and look \
            at the panel.
            SIGNALS (run): SIGTERM and SIGINT stop it; SIGHUP re-reads the configuration \
            (one with errors is rejected, the running one stays; a good one takes over at \
            each panel's next touch sequence); SIGCHLD reaps the commands. The other \
            subcommands end on SIGINT (record writes whole frames up to it).
            EXIT STATUS: 0 on success; 1 on failure (a file that cannot be read, a \
            malformed recording or configuration for replay, eval, learn or check, no \
            touchscreen to read); 78 when `run` refuses the configuration at start (the \
            units tell systemd not to restart into it); 64 for a command line it does not \
            understand.
            FILES: /etc/gestured/gestured.toml, the configuration of the system service \
            (gestured.service); ~/.config/gestured/gestured.toml, the user service's; \
            /dev/input/event*, the touchscreens (read); /dev/uinput, the twins of isolated \
            panels; 70-gestured.rules in /usr/lib/udev/rules.d (the package) or \
            /etc/udev/rules.d (make install), which lets the service's user read \
            touchscreens.
            """,
        version: "0.1.0",
        subcommands: [Run.self, Agent.self, Status.self, Replay.self, Eval.self, Learn.self, Check.self, Devices.self, Record.self, Calibrate.self, Monitor.self,
                      Studio.self, TwinIdentityCommand.self]
    )

    /// A reader that went away (`gestured replay | head`, a closed log pipe) is a write
    /// error (EPIPE), never a signal that kills: the daemon outlives its stdout.
    static func main() {
        Signals.ignoreBrokenPipes()
        main(nil)
    }
}

