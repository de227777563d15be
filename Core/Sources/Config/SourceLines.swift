/// Finds the line of a key in the TOML text, which the parser does not report: the n-th
/// `[[gesture]]` header, then the `key =` line inside that block.
struct SourceLines {
    private let lines: [Substring]

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The line (1-based) of `key` in the `index`-th (1-based) `[[array]]` block, or of
    /// the block's header; nil when not found. `array` may be a plain table (`daemon`).
    func line(array: String, index: Int, key: String?) -> Int? {
        var seen = 0
        var header: Int?
        for (n, raw) in lines.enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[") {
                if header != nil { break }  // the block ended
                let name = line.filter { $0 != "[" && $0 != "]" && $0 != " " }.prefix { $0 != "#" }
                if name == array {
                    seen += 1
                    if seen == index { header = n + 1 }
                }
                continue
            }
            if header != nil, let key, line.hasPrefix(key) {
                let rest = line.dropFirst(key.count).drop { $0 == " " || $0 == "\t" }
                if rest.hasPrefix("=") { return n + 1 }
            }
        }
        return header
    }
}
