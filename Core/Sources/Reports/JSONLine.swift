import TouchCore

/// Builds one JSON object per line without Foundation: keys in the order written,
/// numbers in fixed point so lines stay short and diffable.
public struct JSONLine {
    private var text = "{"
    private var isEmpty = true

    public init() {}

    public mutating func add(_ key: String, _ value: String) {
        separate(key)
        Self.appendQuoted(value, to: &text)
    }

    public mutating func add(_ key: String, _ value: Int) {
        separate(key)
        text += String(value)
    }

    /// A number rounded to `decimals` places (at most 6).
    public mutating func add(_ key: String, _ value: Double, decimals: Int = 6) {
        separate(key)
        text += fixed(value, decimals: decimals)
    }

    public var line: String { text + "}" }

    private mutating func separate(_ key: String) {
        if !isEmpty { text += "," }
        isEmpty = false
        Self.appendQuoted(key, to: &text)
        text += ":"
    }

    private static func appendQuoted(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
