import TouchCore

/// What pan, pinch and rotate share: they follow exactly `fingers` fingers, measure from
/// the moment all of them are down, begin once their measure passes its threshold,
/// report every frame that changes it, and end when a finger lifts; with `resume_ms`, a
/// gesture under way whose fingers lift rests instead, and goes on from where it was if
/// as many come back within the time (more end it; the time running out ends it).
class ContinuousRecognizer: GestureRecognizer {
    /// When all the fingers came down, and the last frame's time.
    private(set) var referenceTime: Timestamp?
    private(set) var lastTime = Timestamp(microseconds: 0)
    /// Under way, its fingers lifted: waiting for them back (`resume_ms`).
    private var resting = false

    /// Resting, it takes the fingers that come back.
    override var acceptsTouches: Bool { super.acceptsTouches || (resting && !excluded) }

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
    /// The fingers came back: the measure goes on from what it last reported.
    func resumeReference() { takeReference() }

    override func touchBegan(_ index: Int) {
        if resting {
            if fingersDown > spec.fingers {
                resting = false
                deadline = nil
                finish(.ended, "\(fingersDown) fingers came back, it had \(spec.fingers)")
            } else if fingersDown == spec.fingers {
                resting = false
                deadline = nil
                lastTime = touches[index].startTime
                resumeReference()
                explain("its \(spec.fingers) finger(s) came back: it goes on")
            }
            return
        }
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
        if resting { return }
        if state.isActive, spec.resumeMS > 0 {
            resting = true
            deadline = output.now + spec.resumeMS
            explain("a finger lifted: it waits \(Int(spec.resumeMS)) ms for \(spec.fingers) finger(s) back (resume_ms)")
        } else if state.isActive {
            finish(.ended, "a finger lifted")
        } else if referenceTime == nil {
            fail("\(mostFingersDown) finger(s), a \(spec.type.rawValue) needs \(spec.fingers)")
        } else {
            fail("fingers lifted \(shortfall())")
        }
    }

    /// The fingers did not come back in time.
    override func deadlineReached() {
        guard resting else { return }
        resting = false
        finish(.ended, "its fingers did not come back within resume_ms (\(Int(spec.resumeMS)) ms)")
    }

    /// A threshold of 0 begins the gesture in the frame its fingers come down.
    override func frameEnded() {
        // All lifted while resting: what is left of them is no longer followed.
        if resting, fingersDown == 0 { touches.removeAll { !$0.isDown } }
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
        resting = false
    }
}
