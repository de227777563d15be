import Config
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

/// Replays every recording of a manifest and scores what fired.
public struct Evaluator {
    public var playback: Playback

    public init(config: Configuration) {
        playback = Playback(config: config)
    }

    /// `load` reads a recording by the manifest's path; `progress` hears of each row done.
    /// Malformed recordings are reported through `problem` and left out of the figures.
    public func evaluate(_ manifest: Manifest, load: (String) throws(FileError) -> Recording,
                         progress: (_ done: Int, _ total: Int) -> Void = { _, _ in },
                         problem: (FileError) -> Void) -> Evaluation {
        var evaluation = Evaluation()
        for (n, row) in manifest.rows.enumerated() {
            progress(n + 1, manifest.rows.count)
            do {
                var fired: String?
                try playback.play(try load(manifest.path(of: row))) { step in
                    if fired == nil, let first = step.events.first(where: { $0.phase == .recognized || $0.phase == .began }) {
                        fired = first.name
                    }
                }
                evaluation.record(expected: row.label, fired: fired ?? Evaluation.noGesture)
            } catch {
                problem(error)
            }
        }
        return evaluation
    }
}

/// A CSV list of labelled recordings: a header naming the columns `file` and `label`
/// (others are kept out), files relative to the manifest.
public struct Manifest {
    public struct Row {
        public var file: String
        public var label: String
    }

    public let path: String
    public private(set) var rows: [Row] = []

    public init(path: String, text: String) throws(FileError) {
        self.path = path
        let lines = text.split(whereSeparator: \.isNewline)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingSpaces }),
              let fileColumn = header.firstIndex(of: "file"), let labelColumn = header.firstIndex(of: "label") else {
            throw FileError(path: path, line: 1, message: "expected a header line naming the columns 'file' and 'label'")
        }
        for (n, line) in lines.enumerated().dropFirst() where !line.allSatisfy(\.isWhitespace) {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
            guard fields.count > max(fileColumn, labelColumn), !fields[fileColumn].isEmpty, !fields[labelColumn].isEmpty else {
                throw FileError(path: path, line: n + 1, message: "expected a file and a label, found '\(line)'")
            }
            rows.append(Row(file: fields[fileColumn], label: fields[labelColumn]))
        }
    }

    /// A row's recording: absolute, or relative to the manifest's directory.
    public func path(of row: Row) -> String {
        if row.file.hasPrefix("/") { return row.file }
        return (path.lastIndex(of: "/").map { String(path[...$0]) } ?? "") + row.file
    }
}

extension Substring {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
