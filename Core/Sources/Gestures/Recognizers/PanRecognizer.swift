import TouchCore

/// `fingers` fingers dragging: begins when their centroid has moved `min_distance_mm`,
/// then reports the centroid, direction and speed (mm/s) every frame.
final class PanRecognizer: ContinuousRecognizer {
    private var origin = Point.zero
    private var previous = Point.zero
    /// What it had gone before its fingers lifted and came back (`resume_ms`).
    private var carried = Point.zero
    private var reported = Point.zero

    override func takeReference() {
        origin = centroid()
        previous = origin
        carried = .zero
    }

    override func resumeReference() {
        origin = centroid()
        previous = origin
        carried = reported
    }

    private var translationMM: Point { millimetreVector(centroid() - origin) + carried }

    /// Far enough; with `angle`, it is the way it went then that decides whether it is this pan.
    override func hasPassedThreshold() -> Bool {
        let translation = translationMM
        guard translation.length >= spec.minDistanceMM else { return false }
        guard let angle = spec.angle else { return true }
        // Not moved yet (min_distance_mm = 0): no way to judge.
        guard translation.length > 0 else { return false }
        if let why = angle.refusal(of: translation) {
            fail(why)
            return false
        }
        return true
    }

    override func thresholdProgress() -> Double { spec.minDistanceMM > 0 ? translationMM.length / spec.minDistanceMM : 1 }

    override func shortfall() -> String {
        "after \(translationMM.length.rounded0) mm, a pan needs \(spec.minDistanceMM.rounded0) mm"
    }

    override func report(_ phase: GesturePhase, seconds: Double) {
        let c = centroid()
        let speed = seconds > 0 ? millimetres(c - previous) / seconds : 0
        previous = c
        let translation = translationMM
        reported = translation
        send(phase, direction: Direction(of: translation), translation: translation, velocity: speed)
    }
}
