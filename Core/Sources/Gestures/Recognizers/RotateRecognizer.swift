import TouchCore

/// Two fingers turning about each other: begins when the line between them has turned
/// `min_rotation` radians, then reports the rotation (clockwise positive, since y points
/// down) and its rate (rad/s).
final class RotateRecognizer: ContinuousRecognizer {
    private var lastAngle = 0.0
    private var rotation = 0.0
    private var previousRotation = 0.0

    /// The angle of the line from the first finger down to the second, in radians.
    private func angle() -> Double {
        guard let first = touches.firstIndex(where: \.isDown),
              let second = touches[(first + 1)...].firstIndex(where: \.isDown) else { return lastAngle }
        let v = millimetreVector(touches[second].location - touches[first].location)
        return atan2Degrees(y: v.y, x: v.x) * Double.pi / 180
    }

    override func takeReference() {
        lastAngle = angle()
        rotation = 0
        previousRotation = 0
    }

    /// The turn goes on from what it was; the fingers that came back set the line anew.
    override func resumeReference() { lastAngle = angle() }

    /// Adds the turn since the last frame, unwrapped across ±π.
    private func accumulate() {
        let a = angle()
        var delta = a - lastAngle
        if delta > Double.pi { delta -= 2 * Double.pi }
        if delta < -Double.pi { delta += 2 * Double.pi }
        rotation += delta
        lastAngle = a
    }

    override func thresholdProgress() -> Double { spec.minRotation > 0 ? abs(rotation) / spec.minRotation : 1 }

    override func hasPassedThreshold() -> Bool {
        accumulate()
        return abs(rotation) >= spec.minRotation
    }

    override func shortfall() -> String {
        "after \(rotation.formatted2) rad, a rotation needs \(spec.minRotation.formatted2) rad"
    }

    override func report(_ phase: GesturePhase, seconds: Double) {
        if phase == .changed { accumulate() }
        let rate = seconds > 0 ? (rotation - previousRotation) / seconds : 0
        previousRotation = rotation
        send(phase, rotation: rotation, velocity: rate)
    }
}
