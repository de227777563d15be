import TouchCore

/// What checkmark and chevron share: they follow the first finger only (others are
/// ignored, as UIKit's `ignore(_:for:)` does), record its path in millimetres, and
/// judge the shape when it lifts.
class StrokeRecognizer: GestureRecognizer {
    /// The path of the first finger, in millimetres (y down).
    private(set) var stroke = Stroke()
    let matcher: StrokeMatcher

    init(spec: GestureSpec, geometry: DeviceGeometry, output: RecognizerOutput, matcher: StrokeMatcher) {
        self.matcher = matcher
        super.init(spec: spec, geometry: geometry, output: output)
    }

    /// Judges the finished stroke: requests recognition or fails with a reason.
    func judge(_ stroke: Stroke) {}

    override func touchBegan(_ index: Int) {
        if index == 0 { stroke.append(millimetreVector(touches[0].start)) }
    }

    override func touchMoved(_ index: Int) {
        if index == 0 { stroke.append(millimetreVector(touches[0].location)) }
    }

    override func touchEnded(_ index: Int) {
        guard index == 0 else { return }
        stroke.append(millimetreVector(touches[0].location), always: true)
        judge(stroke)
        if state == .possible, request == nil { fail("undecided stroke") }
    }

    /// This stroke, as the matcher tells strokes apart.
    var strokeKey: StrokeMatcher.StrokeKey {
        StrokeMatcher.StrokeKey(sequence: output.sequence, touch: touches.first?.id ?? -1, count: stroke.points.count)
    }

    /// Whether `shape` is the closest of the shapes `among` accepts; fails naming the
    /// closer one otherwise.
    func isClosest(_ shape: Int, among: (StrokeMatcher.Shape) -> Bool) -> Bool {
        guard let (closest, runnerUp) = matcher.rank(stroke, strokeKey, among: among) else { return true }
        let shapes = matcher.shapes
        func score(_ i: Int) -> String { matcher.similarity(i).formatted2 }
        if closest != shape {
            fail("closer to \(shapes[closest].description) than to \(shapes[shape].description): \(score(closest)) vs \(score(shape))")
            return false
        }
        explain("closest to \(shapes[shape].description) (\(score(shape)))"
                + (runnerUp.map { ", then \(shapes[$0].description) (\(score($0)))" } ?? ""))
        return true
    }

    override func reset() {
        super.reset()
        stroke.removeAll()
    }
}
