import Bindings
import Config
import Effects
#if canImport(Glibc)
import Glibc
#endif
import Input
import Logging
import Pipeline
import SystemIO
import SystemPackage
import TouchCore

/// What the loop reads, what it reads for, and who sees its steps: `run`, `run --replay`
/// and `monitor` are the same loop with another source or sink.
public struct DaemonOptions {
    public enum Source {
        /// Every touchscreen udev reports, those plugged in later too; or only this node,
        /// whatever udev calls it.
        case touchscreens(only: String?)
        /// Recordings standing in for touchscreens, merged by time, with a timeline of the
        /// seat's other inputs (see `SeatScript`), played at their recorded pace `speed`
        /// times faster, `rounds` times back to back.
        case recordings(paths: [String], timeline: String?, speed: Double, rounds: Int)
    }

    public var configPath: String?
    public var source = Source.touchscreens(only: nil)
    /// `.monitor`: read beside the service; nothing grabbed, performed or signalled.
    public var mode = ReadingMode.service
    public var bus: DaemonSettings.Bus?
    public var logLevel: Logger.Level?
    /// What `monitor` and `run --print` print, as it is decided: every panel's step that did
    /// something, every change of mode, pause, lock or rotation (as many as the log says),
    /// and what gestured's keyboard and pointer get.
    public var show: ((SeatEffect) -> Void)?

    public init() {}
}
