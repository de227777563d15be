import Config
import Gestures
import Pipeline
import TouchCore

/// How a set of gestures does on labelled recordings: for each expected label, which
/// gesture fired first (or `none`).
public struct Evaluation {
    /// Expected label → fired gesture (or "none") → recordings.
    public private(set) var counts: [String: [String: Int]] = [:]
    /// Labels in the order they were first seen, then gestures that only ever fired.
    public private(set) var labels: [String] = []

    public static let noGesture = "none"

    mutating func record(expected: String, fired: String) {
        for label in [expected, fired] where !labels.contains(label) { labels.append(label) }
        counts[expected, default: [:]][fired, default: 0] += 1
    }

    public func total(_ expected: String) -> Int { counts[expected]?.values.reduce(0, +) ?? 0 }
    public func count(_ expected: String, fired: String) -> Int { counts[expected]?[fired] ?? 0 }
    public func timesFired(_ label: String) -> Int { counts.values.reduce(0) { $0 + ($1[label] ?? 0) } }

    /// Of the recordings labelled `label`, the share where `label` fired.
    public func recall(_ label: String) -> Double? {
        let n = total(label)
        return n == 0 ? nil : Double(count(label, fired: label)) / Double(n)
    }

    /// Of the times `label` fired, the share where it was expected.
    public func precision(_ label: String) -> Double? {
        let n = timesFired(label)
        return n == 0 ? nil : Double(count(label, fired: label)) / Double(n)
    }
}
