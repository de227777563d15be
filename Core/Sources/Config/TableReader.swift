import TOMLKit

/// Collects the errors of one file, each located by its key path.
final class Diagnostics {
    let file: String
    let source: SourceLines
    private(set) var errors: [ConfigError] = []

    init(file: String, text: String) {
        self.file = file
        source = SourceLines(text)
    }

    func report(_ message: String, array: String, index: Int, key: String?) {
        let path = (index > 0 ? "\(array)[\(index)]" : array) + (key.map { ".\($0)" } ?? "")
        errors.append(ConfigError(file: file, line: source.line(array: array, index: max(index, 1), key: key),
                                  column: nil, keyPath: path, message: message))
    }

    func report(_ error: ConfigError) { errors.append(error) }
}

/// Reads typed values from one TOML table, reporting wrong types and remembering which
/// keys were read so the rest can be reported as unknown.
struct TableReader {
    let table: TOMLTable
    /// Where the table is: `gesture` and 3 for the third [[gesture]]; index 0 for `[daemon]`.
    let array: String
    let index: Int
    let diagnostics: Diagnostics

    func report(_ key: String?, _ message: String) {
        diagnostics.report(message, array: array, index: index, key: key)
    }

    func has(_ key: String) -> Bool { table[key] != nil }

    /// `requiredBy` names what needs it in the message ("every gesture" by default).
    func string(_ key: String, required: Bool = false, requiredBy: String? = nil) -> String? {
        guard let value = table[key] else {
            if required { report(key, "missing; \(requiredBy ?? "every \(array)") needs one") }
            return nil
        }
        guard let s = value.string else { return wrongType(key, value, "a string") }
        return s
    }

    /// One of `allowed`, with a suggestion when misspelt.
    func choice(_ key: String, _ allowed: [String], required: Bool = false, requiredBy: String? = nil, what: String = "") -> String? {
        guard let s = string(key, required: required, requiredBy: requiredBy) else { return nil }
        guard allowed.contains(s) else {
            report(key, "expected one of \(allowed.joined(separator: ", "))\(what), found \"\(s)\"\(suggestion(for: s, among: allowed))")
            return nil
        }
        return s
    }

    func int(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = table[key] else { return nil }
        guard let i = value.int else { return wrongType(key, value, "an integer") }
        guard range.contains(i) else {
            report(key, "\(i) is out of range: \(range.lowerBound)…\(range.upperBound)")
            return nil
        }
        return i
    }

    /// A positive number; integers are taken as numbers.
    func positive(_ key: String) -> Double? {
        guard let value = table[key] else { return nil }
        guard let x = value.double ?? value.int.map(Double.init) else { return wrongType(key, value, "a number") }
        guard x > 0 else {
            report(key, "must be more than 0, found \(x)")
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

    /// `[low, high]` with 0 ≤ low < high ≤ 1: a part of the screen.
    func unitRange(_ key: String) -> ClosedRange<Double>? {
        guard let pair = pair(key) else { return nil }
        guard 0 <= pair.0, pair.0 < pair.1, pair.1 <= 1 else {
            report(key, "expected [low, high] with 0 ≤ low < high ≤ 1 (fractions of the screen), found [\(pair.0), \(pair.1)]")
            return nil
        }
        return pair.0...pair.1
    }

    /// Two numbers.
    func pair(_ key: String) -> (Double, Double)? {
        guard let value = table[key] else { return nil }
        guard let array = value.array, array.count == 2,
              let a = array[0].double ?? array[0].int.map(Double.init),
              let b = array[1].double ?? array[1].int.map(Double.init) else {
            return wrongType(key, value, "two numbers, like [0.0, 0.5]")
        }
        return (a, b)
    }

    /// Reports the keys not in `allowed`: as not applying when they are `known` elsewhere.
    func reportUnknownKeys(allowed: [String], known: [String] = [], owner: String, takes: [String]? = nil) {
        for key in table.keys where !allowed.contains(key) {
            if known.contains(key) {
                let list = takes ?? allowed
                report(key, "\(owner) has no \(key); it takes \(list.isEmpty ? "no settings of its own" : list.joined(separator: ", "))")
            } else {
                report(key, "unknown setting\(suggestion(for: key, among: allowed))")
            }
        }
    }

    private func wrongType<T>(_ key: String, _ value: TOMLValueConvertible, _ expected: String) -> T? {
        report(key, "expected \(expected), found \(describe(value))")
        return nil
    }

    private func describe(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .string: "a string"
        case .int: "an integer"
        case .double: "a number"
        case .bool: "true or false"
        case .array: "an array"
        case .table: "a table"
        case .date, .time, .dateTime: "a date or time"
        }
    }
}
