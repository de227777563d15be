import ConfigDocument

/// A configuration file's text, edited one gesture at a time so that whatever is not
/// changed stays as its author wrote it: comments, order, blank lines, spacing, quoting.
/// How the studio saves a user's file. Gestures are addressed as the parser numbers
/// them, by their place among the `[[gesture]]` tables (0 for the first).
public struct ConfigText: Equatable, Sendable {
    /// The lines, without the newline that ends the last one.
    public private(set) var lines: [String]
    private var endsWithNewline: Bool

    public init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        endsWithNewline = lines.count > 1 && lines.last == ""
        if endsWithNewline || text.isEmpty { lines.removeLast() }
    }

    public var text: String { lines.isEmpty ? "" : lines.joined(separator: "\n") + (endsWithNewline ? "\n" : "") }

    /// How many `[[gesture]]` tables the text has.
    public var gestureCount: Int { TOMLLines(lines).gestures.count }

    /// `key = value` in the gesture's own table: the value replaced where the key is
    /// (all its lines, for one written over several), or the key added after its last
    /// key; `nil` removes it.
    public mutating func set(_ key: String, _ value: ConfigValue?, inGesture index: Int) throws(ConfigEditError) {
        let scanned = try scan()
        guard scanned.gestures.indices.contains(index) else { throw .noSuchGesture(index) }
        let gesture = scanned.gestures[index]
        let written = try value.map { value throws(ConfigEditError) in "\(TOMLKey(key).text) = \(try TOMLValue(value).text)" }
        if let entry = gesture.entries.first(where: { $0.key == key }) {
            lines.replaceSubrange(entry.lines, with: written.map { [$0] } ?? [])
        } else if let written {
            lines.insert(written, at: gesture.entries.last?.lines.upperBound ?? gesture.header + 1)
        }
    }

    /// A new `[[gesture]]` at the end of the file, a blank line before it.
    public mutating func appendGesture(_ entries: [(key: String, value: ConfigValue)]) throws(ConfigEditError) {
        var block = ["[[gesture]]"]
        for (key, value) in entries { block.append("\(TOMLKey(key).text) = \(try TOMLValue(value).text)") }
        appendBlock(block)
    }

    /// After the last line that is not blank, a blank line between.
    private mutating func appendBlock(_ block: [String]) {
        while lines.last?.isBlank == true { lines.removeLast() }
        lines += (lines.isEmpty ? [] : [""]) + block
        endsWithNewline = true
    }

    /// The gesture's table, the comment just above it and one of the blank lines around it.
    public mutating func removeGesture(_ index: Int) throws(ConfigEditError) {
        let scanned = try scan()
        guard scanned.gestures.indices.contains(index) else { throw .noSuchGesture(index) }
        let span = scanned.gestures[index].span
        lines.removeSubrange(span)
        let at = span.lowerBound
        if at > 0, lines[at - 1].isBlank, at == lines.count || lines[at].isBlank { lines.remove(at: at - 1) }
    }

    /// A copy of the gesture (its comment and every setting) after the last gesture,
    /// named `name`.
    public mutating func duplicateGesture(_ index: Int, as name: String) throws(ConfigEditError) {
        let scanned = try scan()
        guard scanned.gestures.indices.contains(index) else { throw .noSuchGesture(index) }
        var copy = Array(lines[scanned.gestures[index].span])
        while copy.last?.isBlank == true { copy.removeLast() }
        appendBlock(copy)
        try set("name", .string(name), inGesture: scanned.gestures.count)
    }

    private func scan() throws(ConfigEditError) -> TOMLLines {
        let scanned = TOMLLines(lines)
        if scanned.inlineGestures { throw .gesturesNotTables }
        return scanned
    }
}

public enum ConfigEditError: Error, Equatable, CustomStringConvertible {
    case noSuchGesture(Int)
    /// `gesture = [...]` or a dotted key: only `[[gesture]]` tables are edited.
    case gesturesNotTables
    /// A value TOML has no words for here (a date: no setting takes one).
    case notWritable(String)

    public var description: String {
        switch self {
        case .noSuchGesture(let index): "there is no gesture \(index + 1) in the file"
        case .gesturesNotTables: "the file writes its gestures as an inline array; the studio edits [[gesture]] tables: write them so"
        case .notWritable(let what): "\(what) cannot be written as a setting"
        }
    }
}

extension String {
    var isBlank: Bool { allSatisfy(\.isWhitespace) }
}
