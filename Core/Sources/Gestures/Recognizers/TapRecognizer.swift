import TouchCore

/// `taps` taps of `fingers` fingers: each tap puts exactly that many fingers down (not
/// necessarily at the same instant), keeps them still and short, and lifts them all; the
/// next tap starts soon after and close by. Discrete: recognized when the last tap lifts.
final class TapRecognizer: GestureRecognizer {
    private var tapsDone = 0
    private var firstTapLocation: Point?
    /// How far later taps may land from the first (fingertips are not precise).
    private static let multiTapSlopMM = 25.0

    override func touchBegan(_ index: Int) {
        if touches.count == 1 {
            // A new tap: stop waiting for it, and see that it is near the first.
            deadline = touches[0].startTime + spec.maxDurationMS
            if let first = firstTapLocation {
                let distance = millimetres(touches[0].start - first)
                if distance > Self.multiTapSlopMM {
                    fail("tap \(tapsDone + 1) landed \(distance.rounded0) mm from the first, at most \(Self.multiTapSlopMM.rounded0) mm")
                }
            }
        }
        if fingersDown > spec.fingers {
            fail("\(fingersDown) fingers down, a \(spec.fingers)-finger tap")
        }
    }

    override func touchMoved(_ index: Int) {
        let moved = millimetres(touches[index].location - touches[index].start)
        if moved > spec.maxMovementMM {
            fail("a finger moved \(moved.rounded(beside: spec.maxMovementMM)) mm, a tap allows \(spec.maxMovementMM.rounded0) mm")
        }
    }

    override func touchEnded(_ index: Int) {
        touchMoved(index)
        guard state == .possible, fingersDown == 0 else { return }
        guard mostFingersDown == spec.fingers else {
            return fail("\(mostFingersDown) finger(s) tapped, needs \(spec.fingers)")
        }
        tapsDone += 1
        if firstTapLocation == nil { firstTapLocation = centroid() }
        if tapsDone == spec.taps {
            deadline = nil
            let movement = touches.map { millimetres($0.location - $0.start) }.max() ?? 0
            requestRecognition(quality: 1 - movement / max(spec.maxMovementMM, 0.001) * 0.5)
        } else {
            // Wait for the next tap.
            deadline = touches.map(\.time).max()! + spec.maxIntervalMS
            touches.removeAll(keepingCapacity: true)
            mostFingersDown = 0
        }
    }

    override func deadlineReached() {
        if touches.isEmpty {
            fail("no tap \(tapsDone + 1) within \(spec.maxIntervalMS.rounded0) ms, needs \(spec.taps) taps")
        } else {
            fail("fingers down longer than \(spec.maxDurationMS.rounded0) ms: not a tap")
        }
    }

    override func reset() {
        super.reset()
        tapsDone = 0
        firstTapLocation = nil
    }
}
