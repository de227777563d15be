import TouchCore

/// What pan, pinch and rotate share: they follow exactly `fingers` fingers, measure from
/// the moment all of them are down, begin once their measure passes its threshold,
/// report every frame that changes it, and end when a finger lifts.
class ContinuousRecognizer: GestureRecognizer {
    /// When all the fingers came down, and the last frame's time.
    private(set) var referenceTime: Timestamp?
    private(set) var lastTime = Timestamp(microseconds: 0)

    /// The subclass's measure at the reference moment (called when all fingers are down).
    func takeReference() {}
    /// Whether the measure has passed the threshold to begin; a failure reason otherwise is not needed.
    func hasPassedThreshold() -> Bool { false }
    /// Reports began or changed with the subclass's values.
    func report(_ phase: GesturePhase, seconds: Double) {}
    /// The subclass's measure over its threshold (1 at it), once all fingers are down.
    func thresholdProgress() -> Double { 0 }
    /// What the gesture had reached when its fingers lifted, for the failure reason.
    func shortfall() -> String { "" }

    override func touchBegan(_ index: Int) {
        if fingersDown > spec.fingers {
            // Deciding, a finger too many rules it out; under way, it keeps following its own.
            if state == .possible { fail("\(fingersDown) fingers down, a \(spec.fingers)-finger \(spec.type.rawValue)") }
            return
        }
        if fingersDown == spec.fingers {
            referenceTime = touches[index].startTime
            lastTime = touches[index].startTime
            takeReference()
        }
    }

    override func touchEnded(_ index: Int) {
        if state.isActive {
            finish(.ended, "a finger lifted")
        } else if referenceTime == nil {
            fail("\(mostFingersDown) finger(s), a \(spec.type.rawValue) needs \(spec.fingers)")
        } else {
            fail("fingers lifted \(shortfall())")
        }
    }

    /// A threshold of 0 begins the gesture in the frame its fingers come down.
    override func frameEnded() {
        var now = lastTime
        for t in touches where t.time > now { now = t.time }
        guard referenceTime != nil, fingersDown == spec.fingers else { return }
        let seconds = Double(now.microseconds - lastTime.microseconds) / 1_000_000
        if state == .possible, request == nil {
            if hasPassedThreshold() { report(.began, seconds: seconds) }
        } else if state.isActive, now > lastTime {
            report(.changed, seconds: seconds)
        }
        lastTime = now
    }

    /// Starts (through the arbiter) or continues the gesture with these values.
    func send(_ phase: GesturePhase, direction: Direction? = nil, scale: Double? = nil, rotation: Double? = nil,
              translation: Point? = nil, velocity: Double? = nil) {
        if phase == .began {
            requestRecognition(quality: 1, direction: direction, scale: scale, rotation: rotation, translation: translation,
                               velocity: velocity)
        } else {
            change(direction: direction, scale: scale, rotation: rotation, translation: translation, velocity: velocity)
        }
    }

    override var progress: Double {
        state.isActive ? 1 : referenceTime == nil || fingersDown != spec.fingers ? 0 : thresholdProgress()
    }

    override func reset() {
        super.reset()
        referenceTime = nil
    }
}
