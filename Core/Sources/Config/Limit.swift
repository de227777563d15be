import TouchCore

/// The most a setting may be, and what that amounts to in words.
struct Limit {
    var value: Double
    var meaning: String

    init(_ value: Double, _ meaning: String) {
        self.value = value
        self.meaning = meaning
    }

    /// As it would be written in the file.
    var written: String { Int(exactly: value).map(String.init) ?? "\(value)" }
}
