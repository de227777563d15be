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

/// `value` rounded to `decimals` places (0…6), without exponent notation.
public func fixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "0" }
    var scale: Int64 = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64((abs(value) * Double(scale)).rounded())
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard decimals > 0 else { return sign + String(scaled) }
    let fraction = String(scaled % scale)
    return sign + String(scaled / scale) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
}
