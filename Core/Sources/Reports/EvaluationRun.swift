import Config
import Gestures
import Pipeline
import TouchCore

/// An evaluation of all the recordings, and of each person's and each dataset's.
public struct EvaluationRun {
    public var all = Evaluation()
    public var byPerson: [(name: String, evaluation: Evaluation)] = []
    public var byDataset: [(name: String, evaluation: Evaluation)] = []
    /// Held out: the recordings whose person had built-in stroke templates left out.
    public var heldOut = 0
    /// With `Evaluator.listMisses`: each recording where the wrong gesture (or none) fired,
    /// with why: the expected gesture's failure, or the note of the one that fired.
    public var misses: [(file: String, expected: String, fired: String, why: String)] = []

    mutating func record(_ row: Manifest.Row, fired: String) {
        all.record(expected: row.label, fired: fired)
        Self.record(row.person, row, fired, in: &byPerson)
        Self.record(row.dataset, row, fired, in: &byDataset)
    }

    private static func record(_ name: String, _ row: Manifest.Row, _ fired: String, in groups: inout [(name: String, evaluation: Evaluation)]) {
        let i = groups.firstIndex { $0.name == name } ?? { groups.append((name, Evaluation())); return groups.count - 1 }()
        groups[i].evaluation.record(expected: row.label, fired: fired)
    }
}
