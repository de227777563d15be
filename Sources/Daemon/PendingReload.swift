import Config
import Effects
#if canImport(Glibc)
import Glibc
#endif
import Input
import Pipeline
import SystemIO
import TouchCore

/// A SIGHUP's configuration being parsed: its helper, watched by the loop like a command.
struct PendingReload {
    var parse: ConfigParse
    /// When the helper is killed if it has not finished (monotonic µs).
    var deadline: Int64
    var outputDone = false
    var exit: Spawn.ExitStatus?
}
