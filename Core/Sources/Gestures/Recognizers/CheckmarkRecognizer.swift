import TouchCore

/// A checkmark drawn with one finger: down-right, then a longer stroke up-right, ending
/// higher than it began (see `StrokeShape` for how a 'v' is told apart). Discrete:
/// judged when the finger lifts; later fingers are ignored.
final class CheckmarkRecognizer: StrokeRecognizer {
    override func judge(_ stroke: Stroke) {
        guard let shape = matcher.shape(of: stroke, strokeKey) else { return fail("no movement") }
        if let problem = shape.basicProblem(minSize: spec.minSizeMM) ?? shape.checkmarkProblem {
            return fail(problem.description)
        }
        if let shape = matcher.index(of: "checkmark", kind: .builtIn), !isClosest(shape, among: { _ in true }) { return }
        let margin = min(1, (shape.checkmarkScore - StrokeShape.checkmarkScore) / 2)
        requestRecognition(quality: 0.5 + margin / 2)
    }
}
