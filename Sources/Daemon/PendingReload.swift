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
struct PendingReload {
    var parse: ConfigParse
    /// When the helper is killed if it has not finished (monotonic µs).
    var deadline: Int64
    var outputDone = false
    var exit: Spawn.ExitStatus?
}

/// The daemon's reloads: the one being parsed, whether another was asked for meanwhile,
/// and the control interface's Reload calls, answered when it is applied or rejected.
struct Reloads {
    var parsing: PendingReload?
    var again = false
    var callers: [(BusControlError?) -> Void] = []
}
