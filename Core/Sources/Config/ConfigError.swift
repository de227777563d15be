/// One problem in a configuration file, located as precisely as the file allows:
/// `FILE:LINE:COL: error: …` for syntax, `FILE:LINE: error: KEYPATH: …` for the rest.
public struct ConfigError: Error, Equatable, Codable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    /// Like `gesture[3].direction` (1-based: the third [[gesture]] in the file).
    public var keyPath: String?
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, keyPath: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): error: \(keyPath.map { "\($0): " } ?? "")\(message)"
    }
}

/// Every problem found in a file, one per line.
public struct ConfigErrors: Error, Equatable, Sendable, CustomStringConvertible {
    public var errors: [ConfigError]

    public init(errors: [ConfigError]) { self.errors = errors }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// "did you mean …?" for a misspelt name: the closest candidate within a few edits.
/// Candidates whose length alone rules them out are not compared; ties go to the first in
/// alphabetical order.
func suggestion(for word: String, among candidates: some Sequence<String>) -> String {
    guard word.count <= 64 else { return "" }  // no name is that long; comparing would be slow
    let allowed = max(1, word.count / 3), lowered = word.lowercased()
    var best: (name: String, distance: Int)?
    for candidate in candidates where abs(candidate.count - word.count) <= allowed {
        let distance = editDistance(lowered, candidate.lowercased())
        if distance < best?.distance ?? .max || (distance == best?.distance && candidate < best!.name) { best = (candidate, distance) }
    }
    guard let best, best.distance <= allowed, best.distance < word.count else { return "" }
    return " (did you mean \"\(best.name)\"?)"
}

/// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in stride(from: 1, through: a.count, by: 1) {
        for j in stride(from: 1, through: b.count, by: 1) {
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
        }
    }
    return d[a.count][b.count]
}
