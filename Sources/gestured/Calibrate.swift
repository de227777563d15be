#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Effects
import Input
import SystemIO
import SystemPackage
import TouchCore

struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate a touchscreen: touch four targets; libinput's matrix is written as a udev rule.",
        discussion: """
            Run it as root in a terminal that fills the screen (the console of a kiosk, a \
            full-screen terminal): it draws a + near each corner in turn and takes the touch \
            of one finger on each. Not on a terminal, it says each target's place as a \
            fraction of the screen instead. From the four touches it solves libinput's \
            calibration matrix (LIBINPUT_CALIBRATION_MATRIX) by least squares, refuses a \
            result that folds, shrinks or stretches the panel or that the touches disagree \
            on, and writes it as a udev rule for that panel in /etc/udev/rules.d, which \
            libinput (the desktop), gestured's twin and gestured's own recognition take. \
            Meanwhile the panel (or the twin of a panel the service isolates) is read alone: \
            the desktop gets none of the touches, and a service that answers on the system \
            bus is paused. Calibrate with the display in its usual rotation.
            """
    )

    @Option(help: ArgumentHelp("The touchscreen's event node (default: the only touchscreen udev reports).", valueName: "NODE"))
    var device: String?

    @Flag(help: "Print the rule instead of writing it.")
    var print = false

    @Option(help: ArgumentHelp("How long to wait for the touch on each target.", valueName: "SECONDS"))
    var timeout: Int = 30

    func validate() throws {
        guard (1...3600).contains(timeout) else { throw ValidationError("--timeout is between 1 and 3600 seconds") }
    }

    func run() throws {
        let node = try touchscreenNode(device)
        let facts = (try? Udev.inputDevices())?.first { $0.node == node }
        let panel = try openTouchscreen(node)
        let source = try readAlone(panel, node)
        // Paused, the service fires nothing for the taps; resumed after, unless it was paused already.
        let pausedHere = (try? ControlClient.read(.system))?.paused == false
            && (try? ControlClient.pause(.system, seconds: UInt32(timeout * 4 + 60))) != nil
        defer { if pausedHere { try? ControlClient.pause(.system, seconds: nil) } }

        let screen = TargetScreen()
        let matrix: CalibrationMatrix
        do {
            let reader = try TargetTouches(source, timeoutSeconds: timeout, say: screen.say)
            let touches = try screen.show { target, index in try reader.touch(on: index) }
            matrix = try CalibrationMatrix.solving(targets: screen.targets.map(\.point), touches: touches)
        } catch let end as TargetTouches.End {
            printError(end.description)
            throw ExitCode.failure
        } catch let refusal as CalibrationRefusal {
            printError("error: no calibration: \(refusal). Nothing was written; run `gestured calibrate` again")
            throw ExitCode.failure
        }
        let name = facts?.name ?? panel.description.name, phys = facts?.phys ?? ""
        let rule = CalibrationRule.text(name: name, phys: phys, matrix: matrix)
        if print { return Swift.print(rule, terminator: "") }
        let path = CalibrationRule.directory + "/" + CalibrationRule.fileName(name: name, phys: phys)
        do { try Files.write(rule, toFile: path, permissions: [.ownerReadWrite, .groupRead, .otherRead]) } catch {
            printError("error: \(path): cannot write it: \(error). The rule is:\n\(rule)")
            throw ExitCode.failure
        }
        Swift.print("LIBINPUT_CALIBRATION_MATRIX=\"\(matrix)\" for \(node) ('\(printable(name))'), written to \(path)")
        // udev reads the rule, then gives the panel its property: a running gestured takes
        // it and makes the twin anew; a desktop reading the panel itself, when it adds it next.
        for argv in [["udevadm", "control", "--reload"], ["udevadm", "trigger", "--action=change", "--settle", node]] {
            if let failure = Self.run(argv) { printError("warning: \(argv.joined(separator: " ")): \(failure); run it yourself") }
        }
    }

    /// The device to read the touches from, grabbed so that nobody else gets them: the
    /// panel, or the twin of a panel the service isolates (grabbed already), which carries
    /// the panel's own coordinates.
    private func readAlone(_ panel: EvdevDevice, _ node: String) throws -> EvdevDevice {
        do {
            try panel.grab()
            return panel
        } catch .resourceBusy {
            let phys = panel.twinPhys
            guard let twin = (try? Udev.inputDevices())?.first(where: { $0.phys == phys }) else {
                printError("error: \(node) is grabbed by another program, and it is not a gestured twin's panel: stop that program first")
                throw ExitCode.failure
            }
            let device = try openTouchscreen(twin.node)
            // Taken from the desktop too; if another reader holds it, it is still read.
            try? device.grab()
            return device
        } catch {
            printError("error: \(node): cannot take it alone: \(error)")
            throw ExitCode.failure
        }
    }

    /// Runs a udev command to its end; why it failed, or nil.
    private static func run(_ argv: [String]) -> String? {
        do {
            let child = try Spawn.start(argv, environment: ["PATH=/usr/sbin:/usr/bin:/sbin:/bin"], searchPath: true)
            defer { Syscall.release(child.output) }
            let status = try Spawn.wait(child.pid)
            return status.code == 0 ? nil : "\(status)"
        } catch {
            return "\(error)"
        }
    }
}
