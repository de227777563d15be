import TouchCore

/// Two or more fingers spreading or closing: begins when their spread (mean distance
/// from the centroid) has changed by `min_scale_change`, then reports the scale and its
/// rate (scale/s).
final class PinchRecognizer: ContinuousRecognizer {
    private var originSpread = 1.0
    private var previousScale = 1.0

    private func spread() -> Double {
        let c = centroid()
        var sum = 0.0
        var n = 0
        for t in touches where t.isDown {
            sum += millimetres(t.location - c)
            n += 1
        }
        return n == 0 ? 0 : sum / Double(n)
    }

    /// The scale it had reached before its fingers lifted and came back (`resume_ms`).
    private var carried = 1.0

    private var scale: Double { spread() / originSpread * carried }

    override func takeReference() {
        originSpread = max(spread(), 1)  // fingers on top of each other: 1 mm
        previousScale = 1
        carried = 1
    }

    override func resumeReference() {
        originSpread = max(spread(), 1)
        carried = previousScale
    }

    override func hasPassedThreshold() -> Bool { abs(scale - 1) >= spec.minScaleChange }

    override func thresholdProgress() -> Double { spec.minScaleChange > 0 ? abs(scale - 1) / spec.minScaleChange : 1 }

    override func shortfall() -> String {
        "at scale \(scale.formatted2), a pinch needs a change of \(spec.minScaleChange.formatted2)"
    }

    override func report(_ phase: GesturePhase, seconds: Double) {
        let s = scale
        let rate = seconds > 0 ? (s - previousScale) / seconds : 0
        previousScale = s
        send(phase, scale: s, velocity: rate)
    }
}
