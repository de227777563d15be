import ArgumentParser
import Effects
import Input
import Reports
import SystemIO
import TouchCore

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the input devices that are or could be touchscreens, and what gestured does with each.",
        discussion: """
            For each device with position axes (and each udev calls a touchscreen): its node, \
            name, vendor:product and bus; opened read-only, its protocol (multitouch B with \
            its slots, A, or single touch), axis ranges and resolution, the size gestured \
            measures in (from the resolution, a [[device]] rule's size_mm, or assumed) and \
            its rotation (for "auto" or "external", the running service's, when one answers \
            on the bus); the screen it belongs to (its rule's output, else the built-in one) \
            and whether that is lit; a pen (a tablet on the screen) as such; the [[device]] rule that \
            matches it; and whether gestured reads it, \
            isolates it (a running gestured's twin is named), or why not, with what to do. \
            Opening it only reads its description: a running service is not disturbed.
            """
    )

    @OptionGroup var config: ConfigOption

    func run() throws {
        let config = try config.load()
        let all: [InputDeviceFacts]
        do { all = try Udev.inputDevices() } catch {
            printError("error: cannot list input devices through udev: \(error)")
            throw ExitCode.failure
        }
        let output = OutputBuffer()
        defer { output.flush() }
        let listed = DeviceReport.listed(all)
        // What a running service turns each panel to, for rotation = "auto" or "external".
        let service = [BusService.Kind.system, .session].lazy.compactMap { try? ControlClient.read($0) }.first
        let screens = ScreenSensor().read()
        for (index, var device) in listed.enumerated() {
            do {
                device.description = try EvdevDevice(path: device.node) { _ in }.description
            } catch {
                device.openError = "\(error)"
            }
            let twinPhys = device.twinPhys
            device.twinNode = all.first { $0.phys == twinPhys }?.node
            if index > 0 { output.write(line: "") }
            let displayRotation = (service?.devices.first { $0.node == device.node }?.rotation ?? service?.rotation).flatMap(QuarterTurn.init(degrees:))
            for line in DeviceReport.lines(device, config: config, displayRotation: displayRotation, screens: screens) {
                output.write(line: line)
            }
        }
        let twins = all.filter(\.isTwin).count, others = all.count - listed.count - twins
        if listed.isEmpty { output.write(line: "No input device with position axes: no touchscreen here.") }
        if twins > 0 { output.write(line: "\n\(twins) twin\(twins == 1 ? "" : "s") of isolated panels made by gestured, not listed.") }
        if others > 0 { output.write(line: "\n\(others) other input device\(others == 1 ? "" : "s") (keys, buttons, mice) not listed.") }
    }
}
