/// A gesture's `mode = "…"`: the daemon's mode from the next touch sequence on, and how
/// long it lasts without a gesture before the start mode comes back (nil: the
/// `[daemon]` default, which may be forever).
public struct ModeSwitch: Codable, Equatable, Sendable {
    public var mode: String
    public var timeoutSeconds: Double?

    public init(mode: String, timeoutSeconds: Double? = nil) {
        self.mode = mode
        self.timeoutSeconds = timeoutSeconds
    }
}
