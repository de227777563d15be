import ConfigDocument
import TOMLKit

/// TOML text → `ConfigTable`, with TOMLKit (toml++). Only the parsing helper
/// (`gestured-parse-config`) and, through ConfigParsing, the tests, the fuzzers and the
/// benchmarks link this: the daemon reads the helper's `ParseOutcome` instead.
extension ParseOutcome {
    public init(parsing text: String) {
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            self = .notTOML(line: error.source.begin.line, column: error.source.begin.column, message: error.description)
            return
        } catch {
            self = .notTOML(line: nil, column: nil, message: "\(error)")
            return
        }
        guard let document = Self.table(root, depth: 0) else {
            self = .notTOML(line: nil, column: nil,
                            message: "tables and arrays nested more than \(Self.maximumDepth) deep: no configuration needs that; flatten them")
            return
        }
        self = .document(document)
    }

    /// Nil past `maximumDepth`.
    private static func table(_ table: TOMLTable, depth: Int) -> ConfigTable? {
        guard depth <= maximumDepth else { return nil }
        var entries: [(String, ConfigValue)] = []
        // Not `for (key, value) in table`: TOMLKit hands keys over as C strings, so a key
        // with a NUL in it (valid TOML: "\u0000") arrives cut short, finds no value, and its
        // iterator force-unwraps that. No configuration key has a NUL: such a key is kept
        // as its name cut short and a NUL, with an empty value, for the checker to refuse.
        for key in table.keys {
            guard let value = table[key] else {
                entries.append((key + "\u{0}", .string("")))
                continue
            }
            guard let converted = Self.value(value, depth: depth + 1) else { return nil }
            entries.append((key, converted))
        }
        return ConfigTable(entries)
    }

    private static func value(_ value: TOMLValueConvertible, depth: Int) -> ConfigValue? {
        switch value.type {
        case .string: return value.string.map(ConfigValue.string)
        case .int: return value.int.map(ConfigValue.integer)
        case .double: return value.double.map(ConfigValue.float)
        case .bool: return value.bool.map(ConfigValue.boolean)
        case .date, .time, .dateTime: return .dateOrTime
        case .array:
            guard depth <= maximumDepth, let array = value.array else { return nil }
            var elements: [ConfigValue] = []
            for element in array {
                guard let converted = Self.value(element, depth: depth + 1) else { return nil }
                elements.append(converted)
            }
            return .array(elements)
        case .table:
            return value.table.flatMap { table($0, depth: depth) }.map(ConfigValue.table)
        }
    }
}
