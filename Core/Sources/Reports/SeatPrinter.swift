import Pipeline
import TouchCore

/// A seat's effects as `replay` and `run --print` show them, one line each: a panel's
/// steps under its node; a change of mode, pause, lock or rotation under every panel
/// that has shown a step (under "gestured" before any has); with `showTwin`, each frame
/// gestured's keyboard and pointer get, under "gestured" (a twin's are its step's).
public struct SeatPrinter {
    public let format: OutputFormat
    public var showTouches = false
    public var showTransitions = true
    public var showActions = false
    public var showDelivery = false
    public var showTwin = false
    private let write: (String) -> Void
    private var printers: [String: ReplayPrinter] = [:]
    private var nodes: [String] = []

    public init(format: OutputFormat, write: @escaping (String) -> Void) {
        self.format = format
        self.write = write
    }

    public mutating func print(_ effect: SeatEffect) {
        switch effect {
        case .step(let node, _, let step):
            if printers[node] == nil {
                var printer = ReplayPrinter(file: node, format: format, write: write)
                printer.showTouches = showTouches
                printer.showTransitions = showTransitions
                printer.showActions = showActions
                printer.showDelivery = showDelivery
                printer.showTwin = showTwin
                printers[node] = printer
                nodes.insert(node, at: nodes.firstIndex { $0 > node } ?? nodes.endIndex)
            }
            printers[node]!.print(step)
        case .control(let change, _):
            if nodes.isEmpty { ReplayPrinter(file: "gestured", format: format, write: write).print(change) }
            for node in nodes { printers[node]!.print(change) }
        case .write(.keyboard, let events) where showTwin:
            ReplayPrinter(file: "gestured", format: format, write: write).print(events, to: "keyboard")
        case .write(.pointer, let events) where showTwin:
            ReplayPrinter(file: "gestured", format: format, write: write).print(events, to: "pointer")
        default:
            break
        }
    }
}
