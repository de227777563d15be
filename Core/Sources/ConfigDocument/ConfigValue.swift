/// A TOML document's values, as the configuration reads them. The TOML parser (toml++,
/// through TOMLKit) runs in a helper process of its own (see `ParseOutcome`) and hands
/// over this tree; checking it against what gestured takes needs no parser, so the daemon
/// links neither toml++ nor its C++ library.
public indirect enum ConfigValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    /// A date, a time or both: no setting takes one, so only that it is one is kept.
    case dateOrTime
    case array([ConfigValue])
    case table(ConfigTable)

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var int: Int? { if case .integer(let i) = self { i } else { nil } }
    public var double: Double? { if case .float(let d) = self { d } else { nil } }
    public var bool: Bool? { if case .boolean(let b) = self { b } else { nil } }
    public var array: [ConfigValue]? { if case .array(let a) = self { a } else { nil } }
    public var table: ConfigTable? { if case .table(let t) = self { t } else { nil } }

    /// What it is, as an error names what was found.
    public var described: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a number"
        case .boolean: "true or false"
        case .dateOrTime: "a date or time"
        case .array: "an array"
        case .table: "a table"
        }
    }
}

/// A TOML table: its keys in the parser's order, each once.
public struct ConfigTable: Equatable, Sendable {
    public private(set) var keys: [String] = []
    private var values: [String: ConfigValue] = [:]

    public init() {}

    /// A key given twice keeps its first value (the parser never gives one twice).
    public init(_ entries: [(String, ConfigValue)]) {
        for (key, value) in entries where values[key] == nil {
            keys.append(key)
            values[key] = value
        }
    }

    public subscript(key: String) -> ConfigValue? { values[key] }

    public var count: Int { keys.count }

    /// The entries in order.
    public var entries: [(key: String, value: ConfigValue)] { keys.map { ($0, values[$0]!) } }

    public static func == (a: ConfigTable, b: ConfigTable) -> Bool { a.keys == b.keys && a.values == b.values }
}
