import Pipeline
import Reports
import SystemIO
import TouchCore

/// Prints each touchscreen's steps as the loop makes them (monitor, `run --print`), and
/// keeps the picture of its last touch sequence when asked for one.
final class StepWatcher {
    let printing: PrintOptions
    /// Also print what the bindings do.
    let showActions: Bool
    let svg: String?
    let output = OutputBuffer()
    var printers: [String: ReplayPrinter] = [:]
    var pictures: [String: TouchPicture] = [:]

    init(_ printing: PrintOptions, showActions: Bool, svg: String? = nil) {
        self.printing = printing
        self.showActions = showActions
        self.svg = svg
    }

    /// Under every touchscreen's name (each takes it at its next sequence); under
    /// "gestured" before any has shown a step.
    func show(_ change: ControlChange) {
        if printers.isEmpty { ReplayPrinter(file: "gestured", format: printing.format) { [output] in output.write(line: $0) }.print(change) }
        for node in printers.keys.sorted() { printers[node]?.print(change) }
        output.flush()
    }

    func show(_ node: String, _ geometry: DeviceGeometry, _ step: Step) {
        if printers[node] == nil {
            var printer = ReplayPrinter(file: node, format: printing.format) { [output] in output.write(line: $0) }
            printer.showTouches = printing.touches
            printer.showActions = showActions
            printer.showDelivery = true
            printers[node] = printer
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
