import CGtk
import SystemIO

/// gestured-studio [--config FILE] [--machine FILE] [--trace]: the user's gestures made and
/// edited on the screen (`gestured studio` starts it). FILE: the user's configuration
/// (default: $XDG_CONFIG_HOME/gestured/gestured.toml, else ~/.config/gestured/gestured.toml)
/// and the machine's (default /etc/gestured/gestured.toml), shown only. --trace: prints
/// when the inspector draws each verdict, on the monotonic clock.
var arguments = Array(CommandLine.arguments.dropFirst())
/// The value after `name`, taken out of the arguments.
func option(_ name: String, in arguments: inout [String]) -> String? {
    guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(at...at + 1) }
    return arguments[at + 1]
}
let home = Environment.value("HOME").map { $0 + "/.config" }
guard let userPath = option("--config", in: &arguments) ?? (Environment.value("XDG_CONFIG_HOME") ?? home).map({ $0 + "/gestured/gestured.toml" }) else {
    printError("gestured-studio: neither XDG_CONFIG_HOME nor HOME is set: say where your configuration is with --config FILE")
    exit(2)
}
let trace = arguments.contains("--trace")
arguments.removeAll { $0 == "--trace" }
let files = StudioFiles(userPath: userPath, machinePath: option("--machine", in: &arguments) ?? "/etc/gestured/gestured.toml")
guard arguments.isEmpty else {
    printError("gestured-studio: \(arguments.joined(separator: " ")): expected --config FILE, --machine FILE or --trace")
    exit(2)
}

// Flat widgets and a few lines: GTK's cairo renderer draws them, and starts in a tenth of
// the time its GL renderer takes to make a context (1.1 s on a machine without a GPU:
// BENCHMARKS.md). GSK_RENDERER, when set, still chooses.
g_setenv("GSK_RENDERER", "cairo", 0)
let application = gtk_application_new("org.gestured.Studio", G_APPLICATION_NON_UNIQUE)!
var studio: StudioWindow?
SignalHandler.connect(application, "activate") { studio = StudioWindow(application: application, files: files, trace: trace) }
let status = g_application_run(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self), 1, CommandLine.unsafeArgv)
exit(status)
