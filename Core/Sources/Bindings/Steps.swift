/// `step` with `increase` and `decrease` on a continuous gesture: a control in steps (turn
/// two fingers → volume). The step is in the gesture's own unit: mm for a pan, degrees for
/// a rotation, a scale factor for a pinch (1.1: every 10 %).
public struct Steps: Codable, Equatable, Sendable {
    public var size: Double
    public var increase: BoundActions
    public var decrease: BoundActions

    public init(size: Double, increase: BoundActions, decrease: BoundActions) {
        self.size = size
        self.increase = increase
        self.decrease = decrease
    }
}

/// Counts the step boundaries a measure crosses, each once, in order. Boundaries are at
/// every whole step from where the gesture began; one crossed going away from there fires
/// as it is crossed, one crossed coming back fires a quarter step past it, so a finger
/// trembling on a boundary fires once, not back and forth.
public struct StepCounter: Equatable, Sendable {
    /// Boundaries crossed, up minus down, since the gesture began.
    public private(set) var net = 0
    /// How far past a boundary a step back has to go, in steps.
    public static let hysteresis = 0.25
    /// The most one event fires: the rest follow with the next events.
    public static let mostAtOnce = 100

    public init() {}

    /// Appends the crossings (+1 up, −1 down, in order) for the measure now, `position`
    /// steps from where it began.
    public mutating func cross(to position: Double, into fired: inout [Int]) {
        guard position.isFinite else { return }
        for _ in 0..<Self.mostAtOnce {
            let up = net >= 0 ? Double(net) + 1 : Double(net) + Self.hysteresis
            let down = net <= 0 ? Double(net) - 1 : Double(net) - Self.hysteresis
            if position >= up {
                net += 1
                fired.append(1)
            } else if position <= down {
                net -= 1
                fired.append(-1)
            } else {
                return
            }
        }
    }
}
