import Bindings
extension Configuration {
    /// The largest configuration file read: gestured's are a few KiB.
    public static let maximumFileSize = 1 << 20

    /// Parses a file's bytes, refusing first what is not a TOML text at all: too large,
    /// a NUL byte, or not UTF-8 (each with its line, and what to do).
    public static func parse(contents bytes: [UInt8], file: String, keyCodes: KeyCodes = KeyCodes()) throws(ConfigErrors) -> Configuration {
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
        return try parse(String(decoding: bytes, as: UTF8.self), file: file, keyCodes: keyCodes)
    }
}
