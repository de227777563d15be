import TouchCore

/// A chevron drawn with one finger, named by where its point points: right is '>' drawn
/// down-right then down-left, left '<', up '^', down 'v' (a 'v' that is really a
/// checkmark does not count). Discrete: judged when the finger lifts.
final class ChevronRecognizer: StrokeRecognizer {
    override func judge(_ stroke: Stroke) {
        let direction = spec.direction ?? .right
        guard let shape = matcher.shape(of: stroke, strokeKey) else { return fail("no movement") }
        if let problem = shape.basicProblem(minSize: spec.minSizeMM) ?? shape.chevronProblem(pointing: direction) {
            return fail(problem.description)
        }
        if let shape = matcher.index(of: spec.builtInShape ?? "", kind: .builtIn), !isClosest(shape, among: { _ in true }) { return }
        requestRecognition(quality: shape.chevronQuality(pointing: direction), direction: direction)
    }
}
