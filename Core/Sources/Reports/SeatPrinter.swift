import Pipeline
import TouchCore

/// A seat's effects as `replay` and `run --print` show them, one line each: a panel's
/// steps under its node; a change of mode, pause, lock or rotation under every panel
/// that has shown a step (under "gestured" before any has); with `showTwin`, each frame
/// gestured's keyboard and pointer get, under "gestured" (a twin's are its step's).
public struct SeatPrinter {
    /// The printer of gestured's own lines, whose settings (what is shown, the format)
    /// every panel's printer takes.
    public var base: ReplayPrinter
    private var printers: [String: ReplayPrinter] = [:]
    private var nodes: [String] = []

    public init(format: OutputFormat, write: @escaping (String) -> Void) {
        base = ReplayPrinter(file: "gestured", format: format, write: write)
    }

    /// A step's effects, in the order decided.
    public mutating func print(_ effects: SeatEffects) {
        for effect in effects { print(effect) }
    }

    public mutating func print(_ effect: SeatEffect) {
        switch effect {
        case .step(let node, _, let step):
            if printers[node] == nil {
                printers[node] = base.printing(file: node)
                nodes.insert(node, at: nodes.firstIndex { $0 > node } ?? nodes.endIndex)
            }
            printers[node]!.print(step)
        case .control(let change, _):
            if nodes.isEmpty { base.print(change) }
            for node in nodes { printers[node]!.print(change) }
        default:
            base.print(performed: effect)
        }
    }
}
