import TouchCore

/// A shape taught with `gestured learn`: one finger, anywhere, any size, turned at most
/// `StrokeMatcher.maxRotationDegrees`. Recognized when the finger lifts if the stroke is
/// closer to this gesture's templates than to any other learned shape or built-in
/// checkmark or chevron bound beside it, and at least `min_similarity` close.
final class LearnedStrokeRecognizer: StrokeRecognizer {
    private lazy var shape = matcher.index(of: spec.name, kind: .learned)

    override func judge(_ stroke: Stroke) {
        guard let size = stroke.size, size >= spec.minSizeMM else {
            return fail("stroke \((stroke.size ?? 0).rounded0) mm across, needs \(spec.minSizeMM.rounded0) mm")
        }
        guard let shape, isClosest(shape, among: { $0.kind != .contrast }) else { return }
        let similarity = matcher.similarity(shape)
        if similarity < spec.minSimilarity {
            return fail("similarity \(similarity.formatted2) to '\(spec.name)', needs \(spec.minSimilarity.formatted2)")
        }
        requestRecognition(quality: similarity)
    }
}
