import TouchCore

/// A shape taught with `gestured learn`: one finger, anywhere, any size, any order or
/// direction of drawing (`PointCloud`). Recognized when the finger lifts if the stroke's
/// point cloud is closer to this gesture's templates than to any other learned shape's,
/// at least `min_similarity` close (by default within 3 spreads of its own examples, see
/// `StrokeMatcher.learnedSimilarity`), and not closer to a checkmark or chevron bound
/// beside it.
final class LearnedStrokeRecognizer: StrokeRecognizer {
    private lazy var shape = matcher.index(of: spec.name, kind: .learned)

    override func judge(_ stroke: Stroke) {
        guard let size = stroke.size, size >= spec.minSizeMM else {
            return fail("stroke \((stroke.size ?? 0).rounded0) mm across, needs \(spec.minSizeMM.rounded0) mm")
        }
        guard let shape, let (closest, runnerUp) = matcher.closestLearned(strokeFor: stroke, strokeKey) else { return }
        let shapes = matcher.shapes
        func score(_ i: Int) -> String { matcher.learnedSimilarity(i).formatted2 }
        if closest != shape {
            return fail("closer to \(shapes[closest].description) than to \(shapes[shape].description): \(score(closest)) vs \(score(shape))")
        }
        explain("closest learned shape (\(score(shape)))" + (runnerUp.map { ", then \(shapes[$0].description) (\(score($0)))" } ?? ""))
        let similarity = matcher.learnedSimilarity(shape)
        if similarity < spec.minSimilarity {
            return fail("similarity \(similarity.formatted2) to '\(spec.name)', needs \(spec.minSimilarity.formatted2)")
        }
        // Against a checkmark or chevron bound beside it, as they judge themselves.
        guard isClosest(shape, among: { $0.kind == .builtIn || $0 == shapes[shape] }) else { return }
        requestRecognition(quality: similarity)
    }
}
