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

/// Replays every recording of a manifest and scores what fired.
public struct Evaluator {
    public var playback: Playback
    /// Leave-one-person-out: each recording is judged without the built-in stroke
    /// templates its own person drew (see `StrokeMatcher.leftOutPerson`).
    public var heldOut = false
    public var listMisses = false

    public init(config: Configuration) {
        playback = Playback(config: config)
    }

    /// `load` reads a recording by the manifest's path; `progress` hears of each row done.
    /// Malformed recordings are reported through `problem` and left out of the figures.
    public func evaluate(_ manifest: Manifest, load: (String) throws(FileError) -> Recording,
                         progress: (_ done: Int, _ total: Int) -> Void = { _, _ in },
                         problem: (FileError) -> Void) -> EvaluationRun {
        var run = EvaluationRun()
        var playback = playback
        playback.explain = playback.explain || listMisses
        for (n, row) in manifest.rows.enumerated() {
            progress(n + 1, manifest.rows.count)
            playback.leftOutPerson = heldOut ? row.person : nil
            do {
                var fired: String?
                var transitions: [Transition] = []
                let leftOut = try playback.play(try load(manifest.path(of: row))) { step in
                    if fired == nil, let first = step.events.first(where: { $0.phase == .recognized || $0.phase == .began }) {
                        fired = first.name
                    }
                    if listMisses { transitions += step.transitions }
                }
                if leftOut { run.heldOut += 1 }
                run.record(row, fired: fired ?? Evaluation.noGesture)
                if listMisses, (fired ?? Evaluation.noGesture) != row.label {
                    let failure = transitions.last { $0.gesture == row.label && $0.to == .failed }
                    let note = transitions.last { $0.gesture == fired && $0.from == $0.to }
                    run.misses.append((row.file, row.label, fired ?? Evaluation.noGesture, (failure ?? note)?.reason ?? ""))
                }
            } catch {
                problem(error)
            }
        }
        return run
    }
}
