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

/// A CSV list of labelled recordings: a header naming the columns `file` and `label`
/// (others are kept out), files relative to the manifest. Who drew each stroke comes from
/// a `person` column, or else from `source`: its first path component's leading letters
/// and digits ("s01 (pilot)/fast/check01.xml" → s01). The dataset comes from a `dataset`
/// column, or else is the file name up to its first '-' ("mmg-10-stylus-….evemu" → mmg).
/// A person is named within a dataset ("mmg:10"): two datasets' "s04" are two people.
public struct Manifest {
    public struct Row {
        public var file: String
        public var label: String
        public var dataset = ""
        public var person = ""
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
        let columns = ["person", "source", "dataset"].map { header.firstIndex(of: $0) }
        for (n, line) in lines.enumerated().dropFirst() where !line.allSatisfy(\.isWhitespace) {
            let fields = csvFields(line)
            guard fields.count > max(fileColumn, labelColumn), !fields[fileColumn].isEmpty, !fields[labelColumn].isEmpty else {
                throw FileError(path: path, line: n + 1, message: "expected a file and a label, found '\(line)'")
            }
            func field(_ column: Int?) -> String? { column.flatMap { $0 < fields.count && !fields[$0].isEmpty ? fields[$0] : nil } }
            var row = Row(file: fields[fileColumn], label: fields[labelColumn])
            let fileName = row.file.split(separator: "/").last.map(String.init) ?? row.file
            row.dataset = field(columns[2]) ?? fileName.split(separator: "-").first.map(String.init) ?? ""
            if let person = field(columns[0]) ?? field(columns[1]).map(Self.person(fromSource:)), !person.isEmpty {
                row.person = row.dataset + ":" + person
            }
            rows.append(row)
        }
    }

    private static func person(fromSource source: String) -> String {
        String((source.split(separator: "/").first ?? "").prefix { $0.isLetter || $0.isNumber })
    }

    /// A row's recording: absolute, or relative to the manifest's directory.
    public func path(of row: Row) -> String {
        if row.file.hasPrefix("/") { return row.file }
        return (path.lastIndex(of: "/").map { String(path[...$0]) } ?? "") + row.file
    }
}

/// A CSV line's fields, double quotes around a field keeping its commas.
private func csvFields(_ line: Substring) -> [String] {
    var fields: [String] = [], field = "", quoted = false
    for c in line {
        if c == "\"" { quoted.toggle() } else if c == ",", !quoted {
            fields.append(Substring(field).trimmingSpaces)
            field = ""
        } else {
            field.append(c)
        }
    }
    fields.append(Substring(field).trimmingSpaces)
    return fields
}

extension Substring {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
