import Config
import SystemIO

/// Reads and validates a configuration file; every problem is a located error.
public func loadConfiguration(_ path: String) throws(ConfigErrors) -> Configuration {
    let bytes: [UInt8]
    do { bytes = try Files.read(path) } catch {
        throw ConfigErrors(errors: [ConfigError(file: path, line: nil, column: nil, keyPath: nil,
                                                message: "cannot read: \(error)")])
    }
    return try Configuration.parse(String(decoding: bytes, as: UTF8.self), file: path)
}
