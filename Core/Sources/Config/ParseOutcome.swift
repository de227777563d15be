import Bindings
import FoundationEssentials

/// What reading a configuration came to, as `gestured parse-config` hands it over: the
/// TOML parser (toml++ inside TOMLKit) runs in that short-lived helper process, where
/// its assertions on some malformed files kill only the helper, and where what TOMLKit
/// leaks with every string it returns goes with it. The daemon decodes this instead of
/// parsing: a reload costs it no memory for good.
public enum ParseOutcome: Equatable, Codable, Sendable {
    case configuration(Configuration)
    case errors([ConfigError])

    /// Parses `bytes` as `check` does, `keys` named as in `keyCodes`.
    public init(parsing bytes: [UInt8], file: String, keyCodes: KeyCodes) {
        do { self = .configuration(try Configuration.parse(contents: bytes, file: file, keyCodes: keyCodes)) } catch {
            self = .errors(error.errors)
        }
    }

    public var encoded: [UInt8] {
        // Every value in a configuration is finite: JSON holds them exactly.
        (try? Array(JSONEncoder().encode(self))) ?? []
    }

    /// Nil for bytes no helper wrote.
    public init?(decoding bytes: [UInt8]) {
        guard let outcome = try? JSONDecoder().decode(ParseOutcome.self, from: Data(bytes)) else { return nil }
        self = outcome
    }

    /// The configuration, or its errors thrown.
    public func get() throws(ConfigErrors) -> Configuration {
        switch self {
        case .configuration(let configuration): configuration
        case .errors(let errors): throw ConfigErrors(errors: errors)
        }
    }
}
