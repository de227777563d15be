import Config
#if canImport(Glibc)
import Glibc
#endif
import SystemIO
import SystemPackage

/// Reads and validates a configuration file; every problem is a located error, whatever
/// the bytes (see `ConfigParse` for where they are parsed). `scope`: a user's own file.
public func loadConfiguration(_ path: String, scope: ConfigScope = .machine) throws(ConfigErrors) -> Configuration {
    try ConfigParse.run(try readConfiguration(path), file: path, scope: scope)
}

/// The built-in configuration (`Configuration.defaultText`), parsed as a file is.
public func loadDefaultConfiguration() throws(ConfigErrors) -> Configuration {
    try ConfigParse.run(Array(Configuration.defaultText.utf8), file: "(built-in configuration)")
}

/// The file's bytes: a regular file of at most `Configuration.maximumFileSize`.
public func readConfiguration(_ path: String) throws(ConfigErrors) -> [UInt8] {
    do { return try Files.read(path, atMost: Configuration.maximumFileSize) } catch {
        throw ConfigErrors(errors: [ConfigError(file: path, message: "\(error)")])
    }
}

/// A configuration the daemon may run, as both `run` and `check` judge it: valid; and,
/// read as root, safe (see `ConfigSafety`) with its `[daemon] user` existing, so commands
/// never fall back to root. `warnings` say what is valid but will not do what it says.
public func loadDaemonConfiguration(_ path: String) throws -> (config: Configuration, warnings: [String]) {
    try acceptDaemonConfiguration(try ConfigParse.run(try readDaemonConfiguration(path), file: path), path: path)
}

/// The bytes `loadDaemonConfiguration` parses: as root, those of the file
/// `ConfigSafety.open` checked.
public func readDaemonConfiguration(_ path: String) throws -> [UInt8] {
    guard Users.effectiveID == 0 else { return try readConfiguration(path) }
    let fd = try ConfigSafety.open(path)
    defer { Syscall.release(fd) }
    do { return try Files.read(fd, atMost: Configuration.maximumFileSize) } catch {
        throw ConfigErrors(errors: [ConfigError(file: path, message: "\(error)")])
    }
}

/// What `loadDaemonConfiguration` checks of a parsed configuration: its user.
public func acceptDaemonConfiguration(_ config: Configuration, path: String) throws -> (config: Configuration, warnings: [String]) {
    guard let user = config.daemon.user else { return (config, []) }
    if Users.effectiveID != 0 {
        return (config, ["\(path): warning: daemon.user = \"\(user)\" applies only when gestured runs as root; commands run as uid \(Users.effectiveID)"])
    }
    if try Users.lookUp(user) == nil {
        throw ConfigErrors(errors: [ConfigError(file: path, keyPath: "daemon.user",
                                                message: "there is no user \"\(user)\": create it or remove the setting")])
    }
    return (config, [])
}
