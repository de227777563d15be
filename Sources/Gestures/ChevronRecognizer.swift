import TouchCore

final class ChevronRecognizer: StrokeRecognizer {
    override func judge(_ stroke: Stroke) { fail("TODO") }
}
