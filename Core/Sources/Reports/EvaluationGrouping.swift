import TouchCore

/// How `eval --by` groups the recordings.
public enum EvaluationGrouping: String, CaseIterable, Sendable {
    case person, dataset
}
