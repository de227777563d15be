import ConfigDocument
import ConfigSyntax
import SystemIO

/// toml++ 3.4.0 (vendored by TOMLKit 0.6.0) ends the process on an assertion in
/// `parse_key` for a table header whose first character cannot start a key (`[`, `[.]`,
/// `[..]`, `[!]`), instead of reporting it: its issue #294, fixed upstream in PR #301. So
/// the text is parsed in a forked copy of this process; when that copy dies, the line is
/// found by parsing ever longer prefixes of the text (a bisection over its lines: the
/// first line whose prefix also dies), and reported as any other error is.
enum CrashLocator {
    static func parse(_ text: String) -> ParseOutcome {
        guard let whole = try? Spawn.inForkedCopy({ ParseOutcome(parsing: text).encoded }) else {
            return ParseOutcome(parsing: text)  // no fork: parse here, as before
        }
        if whole.status.signal == nil, let outcome = ParseOutcome(decoding: whole.output) { return outcome }
        return locate(in: text)
    }

    private static func dies(_ prefix: Substring) -> Bool {
        let text = String(prefix)
        return (try? Spawn.inForkedCopy({ _ = ParseOutcome(parsing: text); return [] }))?.status.signal != nil
    }

    private static func locate(in text: String) -> ParseOutcome {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // The first `k` lines, as a prefix of the text.
        func prefix(_ k: Int) -> Substring {
            guard k < lines.count else { return text[...] }
            return text[..<lines[k].startIndex]
        }
        // prefix(lo) parses (no lines at all does), prefix(hi) dies.
        var lo = 0, hi = lines.count
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if dies(prefix(mid)) { hi = mid } else { lo = mid }
        }
        let line = lines[hi - 1]
        let indent = line.prefix { $0 == " " || $0 == "\t" }
        guard line.dropFirst(indent.count).first == "[" else {
            return .notTOML(line: hi, column: nil, message: "the TOML parser cannot read this line (it stops at an assertion in toml++): look for a stray character in a key or a quote")
        }
        let afterBrackets = line.dropFirst(indent.count).drop { $0 == "[" }.prefix { $0 == " " || $0 == "\t" }
        let column = line.count - line.dropFirst(indent.count).drop { $0 == "[" }.dropFirst(afterBrackets.count).count + 1
        return .notTOML(line: hi, column: column,
                        message: "a [table] header needs a key here: a bare key (letters, digits, - and _) or a quoted one, like [device] or [\"my table\"]")
    }
}
