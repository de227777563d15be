import TouchCore

/// Gestures one after another, recognized as one (`then`): five taps then a hold, a tap
/// then a swipe. Each step is a recognizer of its own, fed and granted here rather than
/// by the arbiter. A step recognized hands on to the next, which takes the fingers still
/// down (a hold, then a swipe of the same fingers) or, once they lifted, the next touches,
/// which must begin within its `within_ms`; a tap or an edge swipe begins with new
/// touches only, so it waits for the fingers before it to lift. The last step's request
/// is this gesture's, for the arbiter to weigh against the others; any step failing fails
/// the sequence.
final class SequenceRecognizer: GestureRecognizer {
    private let steps: [GestureRecognizer]
    /// What the steps write: only the last step's events, once granted, are this gesture's.
    private let stepOutput: RecognizerOutput
    @exclusivity(unchecked) private var stage = Stage.following(0)
    /// When the current step's first touch must have come by; nil once it came.
    @exclusivity(unchecked) private var nextStepBy: Timestamp?

    private enum Stage {
        /// Step n follows its touches, or waits for the first of them.
        case following(Int)
        /// Step n - 1 was recognized with fingers down; step n begins with new touches
        /// once they lift.
        case awaitingLift(Int)

        var step: Int {
            switch self {
            case .following(let n), .awaitingLift(let n): n
            }
        }
    }

    init(spec: GestureSpec, geometry: DeviceGeometry, output: RecognizerOutput, matcher: StrokeMatcher?) {
        var shapes = spec.earlierSteps + [spec]
        for n in shapes.indices {
            shapes[n].earlierSteps = []
            shapes[n].region = spec.region
            if n < shapes.count - 1 { shapes[n].name = "\(spec.name), step \(n + 1)" }
        }
        let stepOutput = RecognizerOutput()
        self.stepOutput = stepOutput
        steps = shapes.map { makeRecognizer($0, geometry: geometry, output: stepOutput, matcher: matcher) }
        super.init(spec: spec, geometry: geometry, output: output)
    }

    override func deliver(_ frame: TouchFrame) -> Bool {
        guard !excluded, state == .possible || state.isActive else { return false }
        relay()
        var followed: Bool
        switch stage {
        case .awaitingLift(let n):
            let before = steps[n - 1]
            followed = before.deliver(frame)
            if frame.touches.contains(where: { $0.phase == .began && spec.region.contains($0.location) }) {
                followed = true
                fail("a finger came down before \(describe(n - 1))'s lifted; \(describe(n)) begins after")
            } else if before.fingersDown == 0 {
                stage = .following(n)
                nextStepBy = output.now + steps[n].spec.withinMS
            }
        case .following(let n):
            followed = steps[n].deliver(frame)
        }
        settle()
        return followed
    }

    override func deadlineReached() {
        relay()
        let n = stage.step
        if let by = nextStepBy, by <= output.now {
            return fail("no \(describe(n)) began within \(steps[n].spec.withinMS.rounded0) ms of \(describe(n - 1))")
        }
        let step = steps[n]
        if let due = step.deadline, due <= output.now {
            step.deadline = nil
            step.deadlineReached()
        }
        settle()
    }

    /// The arbiter granted the last step's request, asked as this gesture's: the step is
    /// granted too, so that it goes on (a pan's changes); its own copy of the event is not sent.
    override func granted() {
        relay()
        steps[steps.count - 1].grant()
        settle()
    }

    /// Follows what the current step did: a failure fails the sequence; a recognition
    /// hands on to the next step, or (the last) asks the arbiter; the last step's events
    /// under way are this gesture's. Then takes the step's touches and deadline as its own.
    private func settle() {
        while state == .possible, case .following(let n) = stage {
            let step = steps[n]
            if step.state == .failed {
                fail("\(describe(n)): \(stepOutput.transitions.last { $0.gesture == step.name && $0.to == .failed }?.reason ?? "failed")")
                break
            }
            if step.sequence != nil { nextStepBy = nil }
            guard let pending = step.request else { break }
            if n == steps.count - 1 {
                if request == nil { request = pending }
                break
            }
            step.grant()
            handOn(after: n)
        }
        if state.isActive {
            let last = steps[steps.count - 1]
            for event in stepOutput.events where event.name == spec.name && event.phase != .began {
                output.events.append(event)
                lastEvent = event
            }
            switch last.state {
            case .changed: apply(.change, "changed")
            case .ended: apply(.end, reason(of: last, "ended"))
            case .cancelled: apply(.cancel, reason(of: last, "cancelled"))
            default: break
            }
        }
        // What the steps said is this gesture's now, or nothing: none of it is kept.
        output.bugs += stepOutput.bugs
        stepOutput.clear()
        guard state == .possible || state.isActive else { return }
        let shown: GestureRecognizer
        switch stage {
        case .awaitingLift(let n): shown = steps[n - 1]
        case .following(let n): shown = steps[n]
        }
        touches = shown.touches
        mostFingersDown = shown.mostFingersDown
        sequence = steps[0].sequence
        lastSequence = steps.lazy.compactMap(\.lastSequence).max()
        let stepDeadline = steps[stage.step].deadline
        deadline = nextStepBy.map { by in stepDeadline.map { min($0, by) } ?? by } ?? stepDeadline
    }

    /// Step n was recognized: the next follows the fingers still down, or waits for them
    /// to lift, or for the next touches.
    private func handOn(after n: Int) {
        let down = steps[n].touches.filter(\.isDown)
        let next = steps[n + 1]
        explain("\(describe(n)) recognized: \(describe(n + 1)) follows")
        if down.isEmpty {
            stage = .following(n + 1)
            nextStepBy = output.now + next.spec.withinMS
        } else if next.spec.type == .tap || next.spec.type == .edgeSwipe {
            stage = .awaitingLift(n + 1)
        } else {
            stage = .following(n + 1)
            next.adopt(down)
        }
    }

    private func describe(_ n: Int) -> String {
        let step = steps[n].spec
        let what = step.type == .tap && step.taps > 1 ? "\(step.taps) taps" : step.type.rawValue
        return "step \(n + 1) (\(what))"
    }

    private func reason(of step: GestureRecognizer, _ otherwise: String) -> String {
        stepOutput.transitions.last { $0.gesture == step.name }?.reason ?? otherwise
    }

    /// The steps write at this gesture's time, in its touch sequence, explained when it is.
    private func relay() {
        stepOutput.now = output.now
        stepOutput.sequence = output.sequence
        stepOutput.explaining = output.explaining
        stepOutput.transitions.removeAll(keepingCapacity: true)
    }

    /// Each step done counts a share, the current one its progress within its share.
    override var progress: Double {
        guard state == .possible else { return state.isActive || state == .ended ? 1 : 0 }
        let n = stage.step
        return (Double(n) + steps[n].progress) / Double(steps.count)
    }

    override func reset() {
        super.reset()
        for step in steps { step.reset() }
        stepOutput.clear()
        stage = .following(0)
        nextStepBy = nil
    }
}
