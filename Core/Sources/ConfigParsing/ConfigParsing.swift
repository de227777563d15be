import Bindings
import Config
import ConfigDocument
import ConfigSyntax

/// Parsing and checking in one process, for the tests, the fuzzers and the benchmarks
/// (gestured parses in its helper: see `ParseOutcome`).
extension Configuration {
    /// Parses and checks `text` in this process.
    public static func parse(_ text: String, file: String, keyCodes: KeyCodes = KeyCodes(),
                             scope: ConfigScope = .machine) throws(ConfigErrors) -> Configuration {
        try check(ParseOutcome(parsing: text), text: text, file: file, keyCodes: keyCodes, scope: scope)
    }

    /// Parses and checks a file's bytes in this process, refusing first what is not text.
    public static func parse(contents bytes: [UInt8], file: String, keyCodes: KeyCodes = KeyCodes()) throws(ConfigErrors) -> Configuration {
        try parse(try text(of: bytes, file: file), file: file, keyCodes: keyCodes)
    }

    /// The embedded default, parsed (a test keeps it valid).
    public static func makeDefault() -> Configuration {
        (try? parse(defaultText, file: "(built-in configuration)")) ?? Configuration()
    }
}
