/// Where a TOML text's tables and keys are, line by line: enough to edit it without
/// reading its values, a value written over several lines (an array, a multi-line
/// string) followed to its end so that none of its lines is taken for a table or a key.
struct TOMLLines {
    /// One `key = value`, over its lines.
    struct Entry {
        var key: String
        var lines: Range<Int>
    }

    /// One `[[gesture]]` table: from the comment just above its header to the next
    /// table's (its own sub-tables, `[gesture.…]`, with it), its own keys.
    struct Gesture {
        var span: Range<Int>
        var header: Int
        var entries: [Entry] = []
    }

    private(set) var gestures: [Gesture] = []
    /// `gesture = [...]` or `gesture.…` keys: gestures not written as tables.
    private(set) var inlineGestures = false

    init(_ lines: [String]) {
        var open: Gesture?
        var inGesturesOwnTable = false, atRoot = true
        func close(at end: Int) {
            guard var gesture = open else { return }
            gesture.span = gesture.span.lowerBound..<end
            gestures.append(gesture)
            open = nil
        }
        var i = 0
        while i < lines.count {
            let line = lines[i].drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.first == "#" || line.allSatisfy(\.isWhitespace) {
                i += 1
                continue
            }
            if line.first == "[" {
                let (name, isArray) = Self.header(line)
                let start = Self.commentAbove(i, in: lines)
                atRoot = false
                if isArray, name == "gesture" {
                    close(at: start)
                    open = Gesture(span: start..<start, header: i)
                    inGesturesOwnTable = true
                } else if name.hasPrefix("gesture."), open != nil {
                    inGesturesOwnTable = false
                } else {
                    close(at: start)
                }
                i += 1
                continue
            }
            let key = Self.key(line)
            let last = Self.lastLine(ofValueAt: i, in: lines)
            if atRoot, key == "gesture" || key.hasPrefix("gesture.") { inlineGestures = true }
            if inGesturesOwnTable { open?.entries.append(Entry(key: key, lines: i..<last + 1)) }
            i = last + 1
        }
        close(at: lines.count)
    }

    /// The first of the comment lines just above line `i` (`i` when there are none).
    private static func commentAbove(_ i: Int, in lines: [String]) -> Int {
        var start = i
        while start > 0, lines[start - 1].drop(while: { $0 == " " || $0 == "\t" }).first == "#" { start -= 1 }
        return start
    }

    /// `[name]` or `[[name]]`, spaces and a comment after it aside.
    private static func header(_ line: Substring) -> (name: String, isArray: Bool) {
        let isArray = line.hasPrefix("[[")
        let inside = line.dropFirst(isArray ? 2 : 1).prefix { $0 != "]" }
        return (inside.trimmingSpaces, isArray)
    }

    /// The key before the `=`, unquoted when it is a quoted one.
    private static func key(_ line: Substring) -> String {
        let key = line.prefix { $0 != "=" }.trimmingSpaces
        if key.count >= 2, let first = key.first, first == "\"" || first == "'", key.last == first {
            return String(key.dropFirst().dropLast())
        }
        return key
    }

    /// The line where the value that begins on line `i` ends: brackets closed, no
    /// multi-line string open (the last line, for a value never closed).
    private static func lastLine(ofValueAt i: Int, in lines: [String]) -> Int {
        var scanner = ValueScanner()
        let first = Array(lines[i].utf8)
        scanner.scan(first[((first.firstIndex(of: UInt8(ascii: "=")) ?? first.endIndex) + 1)...])
        var last = i
        while !scanner.isComplete, last + 1 < lines.count {
            last += 1
            scanner.scan(Array(lines[last].utf8)[...])
        }
        return last
    }
}

/// Brackets and strings in a TOML value, a line at a time.
private struct ValueScanner {
    private enum Quote { case none, basic, literal, multiBasic, multiLiteral }
    private var depth = 0
    private var quote = Quote.none

    var isComplete: Bool { depth <= 0 && quote == .none }

    mutating func scan(_ line: ArraySlice<UInt8>) {
        let doubleQuote = UInt8(ascii: "\""), singleQuote = UInt8(ascii: "'"), backslash = UInt8(ascii: "\\")
        func starts(_ byte: UInt8, thrice at: Int) -> Bool {
            at + 2 < line.endIndex && line[at] == byte && line[at + 1] == byte && line[at + 2] == byte
        }
        var at = line.startIndex
        while at < line.endIndex {
            let byte = line[at]
            switch quote {
            case .none:
                if byte == UInt8(ascii: "#") { return }
                if starts(doubleQuote, thrice: at) { quote = .multiBasic; at += 2 }
                else if starts(singleQuote, thrice: at) { quote = .multiLiteral; at += 2 }
                else if byte == doubleQuote { quote = .basic }
                else if byte == singleQuote { quote = .literal }
                else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") { depth += 1 }
                else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { depth -= 1 }
            case .basic, .multiBasic:
                if byte == backslash { at += 1 }
                else if quote == .multiBasic, starts(doubleQuote, thrice: at) { quote = .none; at += 2 }
                else if quote == .basic, byte == doubleQuote { quote = .none }
            case .literal:
                if byte == singleQuote { quote = .none }
            case .multiLiteral:
                if starts(singleQuote, thrice: at) { quote = .none; at += 2 }
            }
            at += 1
        }
        // A one-line string never goes on to the next line.
        if quote == .basic || quote == .literal { quote = .none }
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
