import ConfigDocument
import TouchCore

/// A key as TOML writes it: bare when it can be, quoted otherwise.
struct TOMLKey {
    let text: String

    init(_ key: String) {
        let bare = !key.isEmpty && key.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
        text = bare ? key : doubleQuoted(key)
    }
}

/// A value as TOML writes it, on one line.
struct TOMLValue {
    let text: String

    init(_ value: ConfigValue) throws(ConfigEditError) {
        switch value {
        case .string(let string): text = doubleQuoted(string)
        case .integer(let integer): text = String(integer)
        case .float(let float):
            text = float.isNaN ? "nan" : float.isInfinite ? (float < 0 ? "-inf" : "inf") : "\(float)"
        case .boolean(let boolean): text = boolean ? "true" : "false"
        case .dateOrTime: throw .notWritable("a date or time")
        case .array(let values):
            var items: [String] = []
            for value in values { items.append(try TOMLValue(value).text) }
            text = "[" + items.joined(separator: ", ") + "]"
        case .table(let table):
            var items: [String] = []
            for (key, value) in table.entries { items.append("\(TOMLKey(key).text) = \(try TOMLValue(value).text)") }
            text = items.isEmpty ? "{}" : "{ " + items.joined(separator: ", ") + " }"
        }
    }
}
