import Daemon
import Pipeline
import Reports
import SystemIO
import TouchCore

/// Prints the seat's steps and changes as the loop makes them (monitor, `run --print`),
/// as `replay --together` prints them, and keeps the picture of a panel's last touch
/// sequence when asked for one.
final class StepWatcher {
    let svg: String?
    let output = OutputBuffer()
    var printer: SeatPrinter
    var pictures: [String: TouchPicture] = [:]
    /// Changes of mode, pause, lock or rotation shown, as many as the service's log says
    /// (a bus client asking without end does not flood the terminal).
    var controlLines = Daemon.controlLineAllowance(now: monotonicMicroseconds())

    init(_ printing: PrintOptions, showActions: Bool, svg: String? = nil) {
        self.svg = svg
        printer = SeatPrinter(format: printing.format) { [output] in output.write(line: $0) }
        printer.base.showTouches = printing.touches
        printer.base.showActions = showActions
        printer.base.showDelivery = true
        printer.base.showTwin = true
    }

    func show(_ effect: SeatEffect) {
        switch effect {
        case .step(_, _, let step) where step.isQuiet: return
        case .control where !controlLines.take(now: monotonicMicroseconds()): return
        default: break
        }
        printer.print(effect)
        output.flush()
        guard let svg, case .step(let node, let geometry, let step) = effect else { return }
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
