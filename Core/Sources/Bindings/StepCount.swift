/// One step of a continuous gesture crossed: `GESTURE_STEP` and `GESTURE_STEPS`.
public struct StepCount: Equatable, Sendable {
    /// +1 for a step up (increase), −1 for a step down (decrease).
    public var delta: Int
    /// Up minus down since the gesture began, this one included.
    public var net: Int

    public init(delta: Int, net: Int) {
        self.delta = delta
        self.net = net
    }
}
