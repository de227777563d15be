import TouchCore

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
        report(message, array: array, index: index, key: key, lineOf: key)
    }

    /// `lineOf`: the key whose line it is, when not `key` itself (an inline table's).
    func report(_ message: String, array: String, index: Int, key: String?, lineOf: String?) {
        let path = (index > 0 ? "\(array)[\(index)]" : array) + (key.map { ".\($0)" } ?? "")
        errors.append(ConfigError(file: file, line: source.line(array: array, index: max(index, 1), key: lineOf),
                                  column: nil, keyPath: path, message: message))
    }

    func report(_ error: ConfigError) { errors.append(error) }
}
