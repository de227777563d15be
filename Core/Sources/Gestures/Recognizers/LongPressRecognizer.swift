import TouchCore

/// `fingers` fingers held still for `min_duration_ms`. Discrete: recognized at that
/// moment, while the fingers are still down.
final class LongPressRecognizer: GestureRecognizer {
    override func touchBegan(_ index: Int) {
        if fingersDown > spec.fingers {
            return fail("\(fingersDown) fingers down, a \(spec.fingers)-finger long press")
        }
        // The hold counts from when the last finger arrived.
        if fingersDown == spec.fingers { deadline = touches[index].startTime + spec.minDurationMS }
    }

    override func touchMoved(_ index: Int) {
        let moved = millimetres(touches[index].location - touches[index].start)
        if moved > spec.maxMovementMM {
            fail("a finger moved \(moved.rounded(beside: spec.maxMovementMM)) mm, a long press allows \(spec.maxMovementMM.rounded0) mm")
        }
    }

    override func touchEnded(_ index: Int) {
        let held = touches[index].time.milliseconds(since: touches[index].startTime)
        fail("lifted after \(held.rounded0) ms, a long press needs \(spec.minDurationMS.rounded0) ms with \(spec.fingers) finger(s)")
    }

    override func deadlineReached() {
        requestRecognition()
    }
}
