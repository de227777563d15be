import Config
import ConfigDocument
import Pipeline
#if canImport(Glibc)
import Glibc
#endif
import SystemIO
import SystemPackage

/// A configuration parsed in a helper process, `gestured-parse-config`, with the text as
/// its stdin (a file in memory) and only its output pipe besides: toml++ aborts on some
/// malformed files instead of reporting them, and TOMLKit leaks every string it returns;
/// both stay in the helper, which hands back a `ParseOutcome` (the document) that is
/// checked here. The daemon watches the pipe like a command's (`start`, `read`,
/// `finish`); a start and the other subcommands wait (`run`).
public struct ConfigParse {
    public let pid: pid_t
    /// The helper's stdout and stderr (non-blocking): the outcome, or a crash's words.
    public let output: FileDescriptor
    public let file: String
    /// The text parsed: the errors' lines are found in it.
    let text: String
    /// Whose file it is (a user's has the machine's settings refused).
    var scope = ConfigScope.machine
    private var received: [UInt8] = []

    public static let timeoutMicroseconds: Int64 = 10_000_000
    /// Far more than any outcome: a megabyte of TOML is at most a few of its tree.
    static let outputLimit = 64 << 20

    /// The helper: installed in ../libexec/gestured/ from gestured's own directory, or
    /// beside it in a build tree.
    public static let helper = Files.besideProgram(installed: "../libexec/gestured/gestured-parse-config", inBuild: "gestured-parse-config")

    /// Starts the helper on `bytes`, once they are known to be text.
    public static func start(_ bytes: [UInt8], file: String) throws(ConfigErrors) -> ConfigParse {
        let text = try Configuration.text(of: bytes, file: file)
        do {
            let input = try Spawn.memoryFile(bytes)
            defer { Syscall.release(input) }
            // No backtrace from the Swift runtime: a parser's crash ends the helper at once.
            let child = try Spawn.start([helper], environment: ["SWIFT_BACKTRACE=enable=no"], input: input)
            return ConfigParse(pid: child.pid, output: child.output, file: file, text: text)
        } catch {
            throw ConfigErrors(errors: [ConfigError(file: file, message: "cannot be read: gestured's TOML parser \(helper) cannot be started (\(error)); reinstall gestured")])
        }
    }

    /// Reads what the helper wrote, at most a pipe's worth; true at the end of it (the
    /// helper exited, or wrote more than an outcome can be).
    public mutating func read() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        do {
            let n = try chunk.withUnsafeMutableBytes { (b) throws(Errno) -> Int in try Syscall.read(output, into: b) }
            received += chunk[0..<n]
            return n == 0 || received.count > Self.outputLimit
        } catch .wouldBlock {
            return false
        } catch {
            return true
        }
    }

    /// The configuration, from what the helper wrote and how it ended.
    public func finish(_ status: Spawn.ExitStatus) throws(ConfigErrors) -> Configuration {
        try Configuration.check(try outcome(status), text: text, file: file, keyCodes: .libevdev, scope: scope)
    }

    /// What the helper made of the text, not checked: a session agent hands it to the
    /// system service, which checks it itself.
    func outcome(_ status: Spawn.ExitStatus) throws(ConfigErrors) -> ParseOutcome {
        func refuse(_ message: String) -> ConfigErrors { ConfigErrors(errors: [ConfigError(file: file, message: message)]) }
        if let signal = status.signal {
            let stderr = String(decoding: received.prefix(4096), as: UTF8.self)
            if signal == SIGKILL { throw refuse("parsing this file took more than 10 s (the parsing helper was stopped): it is not a configuration gestured can use") }
            throw refuse("the TOML parser crashed reading this file (\(crashWhere(stderr) ?? "signal \(signal)")): it is not valid TOML; look for a stray character in a [table] header, a key or a quote")
        }
        guard status.code == 0, let outcome = ParseOutcome(decoding: received) else {
            throw refuse("cannot be read: gestured's parsing helper ended with \(status): \(String(decoding: received.prefix(512), as: UTF8.self))")
        }
        return outcome
    }

    /// Parses `bytes` in a helper and waits for it, at most 10 s.
    public static func run(_ bytes: [UInt8], file: String, scope: ConfigScope = .machine) throws(ConfigErrors) -> Configuration {
        var (parse, status) = try parsed(bytes, file: file)
        parse.scope = scope
        return try parse.finish(status)
    }

    /// A user's file as their session agent hands it over, and as a replay's timeline
    /// pushes it: its text and the helper's document, not checked (the seat checks it;
    /// a file that is not TOML is a document saying where, refused with its line there);
    /// and the document as read, for the agent's own check.
    public static func userPush(_ bytes: [UInt8], file: String) throws(ConfigErrors) -> (push: UserPush, outcome: ParseOutcome) {
        let (parse, status) = try parsed(bytes, file: file)
        return try parse.userPush(status)
    }

    /// As `userPush(_:file:)`, from a helper watched by a loop (the session agent's).
    public func userPush(_ status: Spawn.ExitStatus) throws(ConfigErrors) -> (push: UserPush, outcome: ParseOutcome) {
        let outcome = try outcome(status)
        return (UserPush(file: file, text: text, document: outcome.encoded), outcome)
    }

    private static func parsed(_ bytes: [UInt8], file: String) throws(ConfigErrors) -> (ConfigParse, Spawn.ExitStatus) {
        var parse = try start(bytes, file: file)
        defer { Syscall.release(parse.output) }
        let deadline = monotonicMicroseconds() + timeoutMicroseconds
        var done = false
        while !done {
            let left = deadline - monotonicMicroseconds()
            guard left > 0, (try? Syscall.waitReadable(parse.output, timeoutMs: Int32(clamping: left / 1000 + 1))) == true else {
                try? Spawn.kill(group: parse.pid, SIGKILL)
                break
            }
            done = parse.read()
        }
        guard let status = try? Spawn.wait(parse.pid) else {
            throw ConfigErrors(errors: [ConfigError(file: file, message: "cannot be read: gestured's parsing helper was lost")])
        }
        return (parse, status)
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
