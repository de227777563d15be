import TouchCore

final class CheckmarkRecognizer: StrokeRecognizer {
    override func judge(_ stroke: Stroke) { fail("TODO") }
}
