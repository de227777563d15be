import Config
import Gestures
import Pipeline
import TouchCore

/// Teach by drawing: the shape drawn `strokes` times on the panel, one finger, becomes a
/// learned stroke (as `gestured learn --device` makes it), said beside the learned shapes
/// it could be taken for (`check-learn`'s measure, `StrokeLearning.confusions`).
struct Teacher {
    static let strokes = 3
    /// As `gestured learn`: a stroke smaller than this across is a tap or a slip.
    static let smallestMM = 10.0
    private(set) var examples: [StrokeTemplate] = []

    enum Taken {
        case tooSmall
        case again(drawn: Int)
        case learned([StrokeTemplate])
    }

    /// A sequence's first finger's path, in millimetres.
    mutating func take(_ path: [Point]) -> Taken {
        guard let example = StrokeTemplate(shape: "shape", path: path), let size = Stroke(path).size, size >= Self.smallestMM else { return .tooSmall }
        examples.append(example)
        return examples.count < Self.strokes ? .again(drawn: examples.count) : .learned(examples)
    }

    /// What the new shape could be taken for among `learned` (the user's and the machine's).
    static func confusions(_ examples: [StrokeTemplate], beside learned: [GestureSpec]) -> [String] {
        StrokeLearning.confusions(of: "the new shape", examples: examples, minSimilarity: GestureSpec(name: "", type: .stroke).minSimilarity, beside: learned)
    }
}
