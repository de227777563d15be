import Config
import TouchCore

/// What a reload does to a panel the daemon has open.
public enum PanelReload: Equatable, Sendable {
    /// Stays open: the new recognizers and bindings take its next touch sequence.
    case keep
    /// Closed and opened anew (grabbed or let go, its twin made or removed): its touches
    /// in flight are cancelled.
    case reopen(because: String)
    /// Closed: the new configuration does not read it.
    case letGo(because: String)
}
