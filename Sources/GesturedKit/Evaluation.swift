import Config
import Gestures
#if canImport(Glibc)
import Glibc
#endif

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

/// Replays every recording of a manifest (`file,label[,…]` with a header line; paths
/// relative to the manifest) and scores what fired.
public struct Evaluator {
    public var playback: Playback

    public init(config: Configuration) {
        playback = Playback(config: config)
    }

    /// Malformed recordings are reported through `problem` and left out of the figures.
    public func evaluate(manifest path: String, problem: (FileError) -> Void) throws(FileError) -> Evaluation {
        let rows = try Manifest.read(path)
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        var evaluation = Evaluation()
        var progress = ProgressBar(total: rows.count)
        for row in rows {
            progress.advance()
            let file = row.file.hasPrefix("/") ? row.file : directory + row.file
            do {
                var fired: String?
                try playback.play(try Recording.load(file)) { events, _ in
                    if fired == nil, let first = events.first(where: { $0.phase == .recognized || $0.phase == .began }) {
                        fired = first.name
                    }
                }
                evaluation.record(expected: row.label, fired: fired ?? Evaluation.noGesture)
            } catch {
                problem(error)
            }
        }
        progress.finish()
        return evaluation
    }
}

enum Manifest {
    struct Row {
        var file: String
        var label: String
    }

    static func read(_ path: String) throws(FileError) -> [Row] {
        let bytes: [UInt8]
        do { bytes = try Files.read(path) } catch { throw FileError(path: path, message: "cannot read: \(error)") }
        let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingSpaces }),
              let fileColumn = header.firstIndex(of: "file"), let labelColumn = header.firstIndex(of: "label") else {
            throw FileError(path: path, line: 1, message: "expected a header line naming the columns 'file' and 'label'")
        }
        var rows: [Row] = []
        for (n, line) in lines.enumerated().dropFirst() where !line.allSatisfy(\.isWhitespace) {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
            guard fields.count > max(fileColumn, labelColumn), !fields[fileColumn].isEmpty, !fields[labelColumn].isEmpty else {
                throw FileError(path: path, line: n + 1, message: "expected a file and a label, found '\(line)'")
            }
            rows.append(Row(file: fields[fileColumn], label: fields[labelColumn]))
        }
        return rows
    }
}

extension Substring {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}

/// A progress bar on stderr, only when stderr is a terminal.
struct ProgressBar {
    let total: Int
    private var done = 0
    private var shown = -1
    private let visible = isatty(2) != 0

    init(total: Int) { self.total = total }

    mutating func advance() {
        done += 1
        let percent = total == 0 ? 100 : done * 100 / total
        guard visible, percent != shown else { return }
        shown = percent
        let width = 40, filled = percent * width / 100
        printErrorRaw("\r[\(String(repeating: "=", count: filled))\(String(repeating: " ", count: width - filled))] \(done)/\(total)")
    }

    func finish() {
        if visible { printErrorRaw("\r\(String(repeating: " ", count: 60))\r") }
    }
}
