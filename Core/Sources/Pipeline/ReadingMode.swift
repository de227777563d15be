import Config
import TouchCore

/// What the daemon reads for: the service acts on touches and isolates the panels the
/// configuration says to; a monitor reads beside it, grabbing and performing nothing.
public enum ReadingMode: Sendable {
    case service
    case monitor
}
