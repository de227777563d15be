import Config
import SystemIO

/// Reads and validates a configuration file; every problem is a located error, whatever
/// the bytes. The TOML parser (toml++, inside TOMLKit) aborts on some malformed files
/// instead of reporting them, so the parse is first tried in a short-lived child process:
/// if that child dies, the file is refused and this process lives on; if it lives, the
/// same parse (deterministic) is safe here.
public func loadConfiguration(_ path: String) throws(ConfigErrors) -> Configuration {
    func refuse(_ message: String) -> ConfigErrors { ConfigErrors(errors: [ConfigError(file: path, message: message)]) }
    let bytes: [UInt8]
    do { bytes = try Files.read(path, atMost: Configuration.maximumFileSize) } catch { throw refuse("\(error)") }
    switch Isolation.run(timeoutMicroseconds: 10_000_000, { _ = try? Configuration.parse(contents: bytes, file: path); return true }) {
    case .finished, .unavailable:
        // Without a child (fork failed: out of processes), the parse runs unguarded.
        break
    case .crashed(let signal, let stderr):
        throw refuse("the TOML parser crashed reading this file (\(crashWhere(stderr) ?? "signal \(signal)")): it is not valid TOML; look for a stray character in a [table] header, a key or a quote")
    case .timedOut:
        throw refuse("the TOML parser did not finish reading this file in 10 s: it is not a configuration gestured can use")
    }
    return try Configuration.parse(contents: bytes, file: path)
}

/// A configuration the daemon may run, as both `run` and `check` judge it: valid; and,
/// read as root, safe (see `ConfigSafety`) with its `[daemon] user` existing, so commands
/// never fall back to root. `warnings` say what is valid but will not do what it says.
public func loadDaemonConfiguration(_ path: String) throws -> (config: Configuration, warnings: [String]) {
    let asRoot = Users.effectiveID == 0
    if asRoot { try ConfigSafety.check(path) }
    let config = try loadConfiguration(path)
    guard let user = config.daemon.user else { return (config, []) }
    if !asRoot {
        return (config, ["\(path): warning: daemon.user = \"\(user)\" applies only when gestured runs as root; commands run as uid \(Users.effectiveID)"])
    }
    if try Users.lookUp(user) == nil {
        throw ConfigErrors(errors: [ConfigError(file: path, keyPath: "daemon.user",
                                                message: "there is no user \"\(user)\": create it or remove the setting")])
    }
    return (config, [])
}

/// Run as root, gestured refuses a configuration that anyone but root could have
/// written or replaced (its commands run as root or as the configured user): the file and
/// every directory above it must be root's and not writable by group or others, the way
/// sshd checks its users' files. Both the path as given and the one its symlinks lead to are
/// checked. A root-owned directory with the sticky bit (/tmp) is fine: others cannot
/// replace what is in it.
public enum ConfigSafety {
    public struct Unsafe: Error, CustomStringConvertible {
        public var description: String
    }

    public static func check(_ path: String) throws {
        let absolute = path.hasPrefix("/") ? path : (try? currentDirectory()).map { "\($0)/\(path)" } ?? path
        var checked = Set<String>()
        for chain in [absolute, (try? resolvedPath(path)) ?? absolute] {
            for (index, file) in ancestry(chain).enumerated() where checked.insert(file).inserted {
                try checkOne(file, what: index == 0 ? "file" : "directory")
            }
        }
    }

    /// The path, then each directory above it up to `/`.
    private static func ancestry(_ path: String) -> [String] {
        var chain = [path]
        var current = Substring(path)
        while let slash = current.lastIndex(of: "/") {
            current = current[..<slash]
            chain.append(current.isEmpty ? "/" : String(current))
            if current.isEmpty { break }
        }
        return chain
    }

    private static func checkOne(_ file: String, what: String) throws {
        // A file that cannot be examined, or is no regular file, is refused when it is read.
        guard let status = try? FileStatus(file), what == "directory" || status.isRegularFile else { return }
        if status.owner != 0 {
            throw Unsafe(description: "\(file): error: the configuration \(what) is owned by uid \(status.owner), not root; its commands would run as root. Fix: chown root \(file)")
        }
        if status.isWritableByGroupOrOthers, !(what == "directory" && status.isSticky) {
            throw Unsafe(description: "\(file): error: the configuration \(what) is writable by group or others; its commands would run as root. Fix: chmod go-w \(file)")
        }
    }
}

/// "an assertion in toml++'s parse_key()", from an assertion message like
/// `toml.hpp:15481: bool toml::impl::parser::parse_key(): Assertion ... failed.`
private func crashWhere(_ stderr: String) -> String? {
    guard let line = stderr.split(separator: "\n").first(where: { $0.contains("Assertion") }),
          let open = line.firstIndex(of: "(") else { return nil }
    let function = line[..<open].split(separator: ":").last ?? ""
    return function.isEmpty ? nil : "an assertion in toml++'s \(function)()"
}
