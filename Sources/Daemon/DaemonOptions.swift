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
        /// A recording standing in for a touchscreen, played at its recorded pace `speed`
        /// times faster, `rounds` times back to back.
        case recording(path: String, speed: Double, rounds: Int)
    }

    public var configPath: String?
    public var source = Source.touchscreens(only: nil)
    /// `.monitor`: read beside the service; nothing grabbed, performed or signalled.
    public var mode = ReadingMode.service
    public var bus: DaemonSettings.Bus?
    public var logLevel: Logger.Level?
    /// Every step that did something, with its touchscreen's node and geometry, as it is
    /// made: what `monitor` and `run --print` print.
    public var showStep: ((_ node: String, _ geometry: DeviceGeometry, _ step: Step) -> Void)?
    /// Every mode switch, pause, resume and lock change, as it is made.
    public var showControl: ((ControlChange) -> Void)?

    public init() {}
}
