import Config
import Effects
#if canImport(Glibc)
import Glibc
#endif
import Input
import Pipeline
import SystemIO
import TouchCore

/// A configuration being parsed: its helper, watched by the loop like a command (a
/// SIGHUP's in the daemon, the user's file in the session agent).
public struct PendingReload {
    public var parse: ConfigParse
    /// When the helper is killed if it has not finished (monotonic µs).
    public var deadline: Int64
    public var outputDone = false
    public var exit: Spawn.ExitStatus?

    public init(parse: ConfigParse, deadline: Int64) {
        self.parse = parse
        self.deadline = deadline
    }
}
