/// Finds the line of a key in the TOML text, which the parser does not report: the n-th
/// `[[gesture]]` header, then the `key =` line inside that block.
///
/// A small scan of the text, done once: it skips strings (multi-line ones included) and
/// comments, and follows arrays spanning lines, so a `[` inside them is not taken for a
/// header. The text has already parsed, so the scan may assume it is valid TOML.
struct SourceLines {
    /// One `[name]` or `[[name]]` header and the keys written under it.
    private struct Block {
        var name: String
        var line: Int
        var keys: [String: Int] = [:]
    }

    /// Keys before the first header (`region = …`, or inline `gesture = [{ … }]`).
    private var rootKeys: [String: Int] = [:]
    private var blocks: [Block] = []
    /// By header name, where its blocks are in `blocks`: finding the 10,000th
    /// `[[gesture]]` takes no scan.
    private var blocksNamed: [String: [Int]] = [:]

    init(_ text: String) {
        var scanner = Scanner()
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Array(raw.utf8)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            switch scanner.scan(line) {
            case .header(let name):
                blocksNamed[name, default: []].append(blocks.count)
                blocks.append(Block(name: name, line: n + 1))
            case .key(let key):
                if blocks.isEmpty {
                    if rootKeys[key] == nil { rootKeys[key] = n + 1 }
                } else if blocks[blocks.count - 1].keys[key] == nil {
                    blocks[blocks.count - 1].keys[key] = n + 1
                }
            case .nothing:
                break
            }
        }
    }

    /// The line (1-based) of `key` in the `index`-th (1-based) `[[array]]` block, or of
    /// the block's header; nil when not found. `array` may be a plain table (`daemon`, index
    /// 1) or a key at the top of the file.
    func line(array: String, index: Int, key: String?) -> Int? {
        if let named = blocksNamed[array], index >= 1, index <= named.count {
            let b = named[index - 1], block = blocks[b]
            guard let key else { return block.line }
            if let line = block.keys[key] { return line }
            // A sub-table of this block: [gesture.key] or [[gesture.key]].
            for sub in blocks[(b + 1)...] {
                if sub.name == array { break }
                if sub.name == "\(array).\(key)" || sub.name.hasPrefix("\(array).\(key).") { return sub.line }
            }
            return block.line
        }
        if let key, let line = rootKeys["\(array).\(key)"] { return line }
        // Only sub-tables: [foo.bar] for a `foo` nothing else defines.
        return rootKeys[array] ?? blocks.first { $0.name.hasPrefix("\(array).") }?.line
    }
}

/// Reads a TOML file line by line, remembering what spans lines: multi-line strings and
/// arrays.
private struct Scanner {
    enum Found {
        case header(String)
        case key(String)
        case nothing
    }

    /// The closing delimiter of the multi-line string we are in (`"""` or `'''`).
    private var multiline: UInt8?
    /// How deep in brackets or braces the previous lines left us.
    private var depth = 0

    mutating func scan(_ line: [UInt8]) -> Found {
        var i = 0
        if let quote = multiline {
            guard let end = closing(quote, in: line, from: 0) else { return .nothing }
            multiline = nil
            i = end
        } else if depth == 0 {
            while i < line.count, line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: "\t") { i += 1 }
            guard i < line.count, line[i] != UInt8(ascii: "#") else { return .nothing }
            if line[i] == UInt8(ascii: "[") { return .header(headerName(line[i...])) }
            guard let equals = keyEnd(line, from: i) else { return .nothing }
            let key = normalized(line[i..<equals])
            value(line, from: equals + 1)
            return .key(key)
        }
        value(line, from: i)
        return .nothing
    }

    /// Follows strings, comments and brackets in a value to the end of the line.
    private mutating func value(_ line: [UInt8], from start: Int) {
        var i = start
        while i < line.count {
            let c = line[i]
            if c == UInt8(ascii: "#") { return }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                if i + 2 < line.count, line[i + 1] == c, line[i + 2] == c {
                    guard let end = closing(c, in: line, from: i + 3) else {
                        multiline = c
                        return
                    }
                    i = end
                    continue
                }
                i += 1
                while i < line.count, line[i] != c {
                    if c == UInt8(ascii: "\"") && line[i] == UInt8(ascii: "\\") { i += 1 }
                    i += 1
                }
                i += 1
                continue
            }
            if c == UInt8(ascii: "[") || c == UInt8(ascii: "{") { depth += 1 }
            if c == UInt8(ascii: "]") || c == UInt8(ascii: "}") { depth = max(0, depth - 1) }
            i += 1
        }
    }

    /// The index after the three closing `quote`s of a multi-line string, if on this line.
    private func closing(_ quote: UInt8, in line: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + 2 < line.count {
            if quote == UInt8(ascii: "\"") && line[i] == UInt8(ascii: "\\") {
                i += 2
                continue
            }
            if line[i] == quote, line[i + 1] == quote, line[i + 2] == quote {
                var end = i + 3
                while end < line.count, line[end] == quote { end += 1 }  // """a"""" ends in a quote
                return end
            }
            i += 1
        }
        return nil
    }

    /// Where the `=` after a key is, skipping quoted parts of the key.
    private func keyEnd(_ line: [UInt8], from start: Int) -> Int? {
        var i = start
        while i < line.count {
            let c = line[i]
            if c == UInt8(ascii: "=") { return i }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                i += 1
                while i < line.count, line[i] != c {
                    if c == UInt8(ascii: "\"") && line[i] == UInt8(ascii: "\\") { i += 1 }
                    i += 1
                }
            }
            i += 1
        }
        return nil
    }

    /// `[[ gesture ]]  # …` → `gesture`.
    private func headerName(_ text: ArraySlice<UInt8>) -> String {
        var inside = text.drop { $0 == UInt8(ascii: "[") }
        if let close = inside.firstIndex(of: UInt8(ascii: "]")) { inside = inside[..<close] }
        return normalized(inside)
    }

    /// A key as TOMLKit names it: no spaces around dots, no quotes.
    private func normalized(_ text: ArraySlice<UInt8>) -> String {
        String(decoding: text.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "'") },
               as: UTF8.self)
    }
}
