import TouchCore

/// Builds one JSON object per line without Foundation: keys in the order written,
/// numbers in fixed point so lines stay short and diffable.
public struct JSONLine {
    private var text = "{"
    private var isEmpty = true

    public init() {}

    public mutating func add(_ key: String, _ value: String) {
        separate(key)
        text += doubleQuoted(value)
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
        text += doubleQuoted(key)
        text += ":"
    }
}
