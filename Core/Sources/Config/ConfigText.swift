import Bindings
import ConfigDocument

extension Configuration {
    /// The largest configuration file read.
    public static let maximumFileSize = ParseOutcome.maximumTextSize

    /// A file's bytes as text, refusing first what is not a TOML text at all: too large,
    /// a NUL byte, or not UTF-8 (each with its line, and what to do).
    public static func text(of bytes: [UInt8], file: String) throws(ConfigErrors) -> String {
        func refuse(_ line: Int?, _ message: String) -> ConfigErrors {
            ConfigErrors(errors: [ConfigError(file: file, line: line, message: message)])
        }
        guard bytes.count <= maximumFileSize else {
            throw refuse(nil, "\(bytes.count) bytes, more than a configuration may be (\(maximumFileSize)): is it the right file?")
        }
        var line = 1
        var start = 0
        for (i, byte) in bytes.enumerated() {
            if byte == 0 { throw refuse(line, "a NUL byte: this is not a text file") }
            guard byte == UInt8(ascii: "\n") else { continue }
            if String(validating: bytes[start..<i], as: UTF8.self) == nil { throw refuse(line, "not UTF-8 text: TOML files are UTF-8") }
            line += 1
            start = i + 1
        }
        if String(validating: bytes[start...], as: UTF8.self) == nil { throw refuse(line, "not UTF-8 text: TOML files are UTF-8") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The configuration `text` is, from what the TOML parser made of it.
    public static func check(_ outcome: ParseOutcome, text: String, file: String,
                             keyCodes: @autoclosure @escaping () -> KeyCodes = KeyCodes(),
                             scope: ConfigScope = .machine, machineGestures: Set<String> = []) throws(ConfigErrors) -> Configuration {
        switch outcome {
        case .document(let root):
            return try check(root, text: text, file: file, keyCodes: keyCodes(), scope: scope, machineGestures: machineGestures)
        case .notTOML(let line, let column, let message):
            throw ConfigErrors(errors: [ConfigError(file: file, line: line, column: column, keyPath: nil, message: message)])
        }
    }
}
