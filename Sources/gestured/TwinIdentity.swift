import ArgumentParser
import Input
import SystemIO
import TouchCore

/// 90-gestured-twin.rules' helper: udev runs it for each new twin and imports what it
/// prints, so that the twin carries its panel's calibration, output, path and group.
struct TwinIdentityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "twin-identity",
        abstract: "Print the udev properties an isolated panel's twin takes from its panel (for 90-gestured-twin.rules).",
        discussion: """
            udev runs it for each twin gestured makes (IMPORT{program}) and gives the twin \
            what it prints, as KEY=VALUE lines: the panel's LIBINPUT_* properties (its \
            calibration matrix, device group, hwdb's attributes; not LIBINPUT_IGNORE_DEVICE), \
            WL_OUTPUT, WL_SEAT, ID_SEAT, ID_PATH and ID_PATH_TAG, which rules written for \
            the panel by where it is plugged in cannot give a virtual device. Only a twin \
            gestured recorded as its own (/run/gestured/twins, the system service's runtime \
            directory) takes one: a device another holder of /dev/uinput names and phys's \
            like a twin prints nothing, as does one whose panel is gone.
            """
    )

    @Argument(help: "The twin's kernel name (event7) or node (/dev/input/event7).")
    var twin: String

    func run() {
        let sysname = String(twin.split(separator: "/").last ?? "")
        let daemonUser = (try? Users.lookUp("gestured")).flatMap { $0 }?.uid
        guard let panel = TwinRecords.panel(ofTwin: sysname, daemonUser: daemonUser),
              let properties = Udev.properties(ofDevice: panel) else { return }
        for line in TwinIdentity.lines(properties) { print(line) }
    }
}
