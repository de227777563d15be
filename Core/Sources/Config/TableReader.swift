import ConfigDocument
import TouchCore

/// Reads typed values from one TOML table, reporting wrong types and remembering which
/// keys were read so the rest can be reported as unknown.
struct TableReader {
    let table: ConfigTable
    /// Where the table is: `gesture` and 3 for the third [[gesture]]; index 0 for `[daemon]`.
    let array: String
    let index: Int
    let diagnostics: Diagnostics
    /// For an inline table (`increase = { keys = "VolumeUp" }`), the key that holds it: its
    /// errors are at that key's line, named `increase.keys`.
    var within: String? = nil

    /// Like `gesture[3]`, or `daemon`.
    var path: String { index > 0 ? "\(array)[\(index)]" : array }

    func report(_ key: String?, _ message: String) {
        let named = within.map { outer in key.map { "\(outer).\($0)" } ?? outer } ?? key
        diagnostics.report(message, array: array, index: index, key: named, lineOf: within ?? key)
    }

    /// The inline table at `key`, read as a table of its own.
    func table(_ key: String, example: String = "{ keys = \"VolumeUp\" }") -> TableReader? {
        guard let value = table[key] else { return nil }
        guard let inner = value.table else { return wrongType(key, value, "a table, like \(example)") }
        return TableReader(table: inner, array: array, index: index, diagnostics: diagnostics, within: key)
    }

    func has(_ key: String) -> Bool { table[key] != nil }

    /// `requiredBy` names what needs it in the message ("every gesture" by default);
    /// `hint` follows, like the values allowed. Empty strings are refused.
    func string(_ key: String, required: Bool = false, requiredBy: String? = nil, hint: String = "") -> String? {
        guard let value = table[key] else {
            if required { report(key, "missing; \(requiredBy ?? "every \(array)") needs one\(hint)") }
            return nil
        }
        guard let s = value.string else { return wrongType(key, value, "a string") }
        guard !s.isEmpty else {
            report(key, "empty; expected a non-empty string\(hint)")
            return nil
        }
        return s
    }

    /// A name: one line of printable text, as it appears in logs, signals and reports
    /// (a newline in it would forge log lines).
    func name(_ key: String, required: Bool = false) -> String? {
        guard let s = string(key, required: required) else { return nil }
        if let control = s.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            report(key, "contains a control character (U+\(hex(UInt16(truncatingIfNeeded: control.value), digits: 4))); a name is one line of printable text")
            return nil
        }
        return s
    }

    /// A list of names (see `name`), none empty.
    func names(_ key: String) -> [String]? {
        guard let list = strings(key) else { return nil }
        for s in list {
            if s.isEmpty { report(key, "holds an empty name"); return nil }
            if let control = s.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
                report(key, "holds a name with a control character (U+\(hex(UInt16(truncatingIfNeeded: control.value), digits: 4))); a name is one line of printable text")
                return nil
            }
        }
        return list
    }

    /// One of `allowed`, with a suggestion when misspelt.
    func choice(_ key: String, _ allowed: [String], required: Bool = false, requiredBy: String? = nil, what: String = "") -> String? {
        let list = allowed.joined(separator: ", ")
        guard let s = string(key, required: required, requiredBy: requiredBy, hint: ": one of \(list)") else { return nil }
        guard allowed.contains(s) else {
            report(key, "expected one of \(list)\(what), found \"\(s)\"\(suggestion(for: s, among: allowed))")
            return nil
        }
        return s
    }

    /// An integer in `range`; `what` qualifies the range in the message (" for a pinch").
    func int(_ key: String, in range: ClosedRange<Int>, what: String = "") -> Int? {
        guard let value = table[key] else { return nil }
        guard let i = value.int else { return wrongType(key, value, "an integer") }
        guard range.contains(i) else {
            report(key, "expected an integer in \(range.lowerBound)…\(range.upperBound)\(what), found \(i)")
            return nil
        }
        return i
    }

    /// A number more than 0 (or 0 when allowed) and at most `limit`; integers are numbers too.
    func number(_ key: String, allowingZero: Bool, atMost limit: Limit) -> Double? {
        guard let value = table[key] else { return nil }
        guard let x = number(value) else { return wrongType(key, value, "a number") }
        guard x > 0 || (allowingZero && x == 0), x <= limit.value else {
            let lower = allowingZero ? "from 0" : "more than 0"
            report(key, "expected a number \(lower) and at most \(limit.written) (\(limit.meaning)), found \(literal(value))")
            return nil
        }
        return x
    }

    func bool(_ key: String) -> Bool? {
        guard let value = table[key] else { return nil }
        guard let b = value.bool else { return wrongType(key, value, "true or false") }
        return b
    }

    func strings(_ key: String) -> [String]? {
        guard let value = table[key] else { return nil }
        guard let array = value.array else { return wrongType(key, value, "an array of strings") }
        var result: [String] = []
        for element in array {
            guard let s = element.string else { return wrongType(key, element, "an array of strings") }
            result.append(s)
        }
        return result
    }

    /// `[low, high]` with 0 ≤ low < high ≤ 1: a part of the screen (`what` says which).
    func unitRange(_ key: String, what: String) -> ClosedRange<Double>? {
        guard let (a, b) = pair(key, example: "[0.2, 0.8]") else { return nil }
        guard 0 <= a, a < b, b <= 1 else {
            report(key, "expected [low, high] with 0 ≤ low < high ≤ 1 (\(what)), found \(literal(table[key]!))")
            return nil
        }
        return a...b
    }

    /// Two numbers, like `example`.
    func pair(_ key: String, example: String) -> (Double, Double)? {
        guard let value = table[key] else { return nil }
        let expected = "two numbers, like \(example)"
        guard let array = value.array else { return wrongType(key, value, expected) }
        guard array.count == 2 else {
            report(key, "expected \(expected), found \(array.count == 1 ? "1 value" : "\(array.count) values")")
            return nil
        }
        guard let a = number(array[0]), let b = number(array[1]) else {
            return wrongType(key, number(array[0]) == nil ? array[0] : array[1], expected)
        }
        return (a, b)
    }

    /// Integers are numbers too.
    private func number(_ value: ConfigValue) -> Double? { value.double ?? value.int.map(Double.init) }

    /// A number or an array of numbers as written (`0`, `0.5`, `[1, 0.5]`).
    private func literal(_ value: ConfigValue) -> String {
        if let i = value.int { return "\(i)" }
        if let d = value.double { return "\(d)" }
        if let array = value.array { return "[" + array.map(literal).joined(separator: ", ") + "]" }
        return value.described
    }

    /// Reports the keys not in `allowed`: as not applying when they are `known` elsewhere
    /// (the settings of other gesture types), listing what `owner` `takes` instead.
    func reportUnknownKeys(allowed: [String], known: [String] = [], owner: String, takes: [String]? = nil) {
        let list = takes ?? allowed
        let takesText = "it takes \(list.isEmpty ? "no settings of its own" : list.joined(separator: ", "))"
        for key in unknownKeys(table, allowed: allowed) {
            if known.contains(key) {
                report(key, "\(owner) has no \(key); \(takesText)")
            } else if !suggestion(for: key, among: allowed).isEmpty {
                report(key, "unknown setting\(suggestion(for: key, among: allowed))")
            } else if !suggestion(for: key, among: known).isEmpty {
                // Misspelt, and would not apply anyway.
                report(key, "unknown setting\(suggestion(for: key, among: known)), and \(owner) has none; \(takesText)")
            } else {
                report(key, "unknown setting; \(owner) takes \(allowed.joined(separator: ", "))")
            }
        }
    }

    private func wrongType<T>(_ key: String, _ value: ConfigValue, _ expected: String) -> T? {
        report(key, "expected \(expected), found \(value.described)")
        return nil
    }
}

/// The keys of `table` not in `allowed`, sorted.
func unknownKeys(_ table: ConfigTable, allowed: [String]) -> [String] {
    table.keys.filter { !allowed.contains($0) }.sorted()
}
