import Config
import TouchCore

/// How the daemon uses one input device: the one answer to "is this panel read, and is
/// it isolated?", which the daemon performs (open, grab, make the twin, let go) and
/// `devices` reports.
public enum PanelUse: Equatable, Sendable {
    /// Not read.
    case ignored(IgnoredBecause)
    /// Read; its touches reach applications as well. `notIsolatedBecause`: isolation was
    /// asked for and cannot be had, to say so.
    case read(notIsolatedBecause: String?)
    /// Read and grabbed: applications get its uinput twin, with what no gesture takes.
    case isolated

    public enum IgnoredBecause: Equatable, Sendable, CustomStringConvertible {
        /// Another gestured's (or this one's) twin: reading it would read our own output.
        case twin
        /// A `[[device]]` rule says `ignore = true`.
        case rule
        case noPositionAxes
        /// Another session is in front of the seat (a user's own daemon; `SeatPresence`).
        case anotherSession

        public var description: String {
            switch self {
            case .anotherSession: "another session is in front of the seat: read once this one is again"
            case .twin: "a gestured twin or virtual device, not a touchscreen to read"
            case .rule: "ignored by a [[device]] rule"
            case .noPositionAxes: "no position axes, not a touchscreen"
            }
        }
    }
}
