/// How often something may happen (a log line, a bus read): a token bucket of `burst`
/// refilled at `perSecond`, as libinput rate-limits its messages; what it refuses is
/// counted and reported at most once per `reportEvery`. A command printing without end,
/// a device sending garbage or a bus client asking without end cannot fill the journal
/// nor take the loop, and the log still says how much was left out.
public struct Allowance {
    public let burst: Double
    public let perSecond: Double
    /// Microseconds between two reports of what was refused.
    public let reportEvery: Int64

    private var tokens: Double
    private var refilledAt: Int64
    private var reportedAt: Int64
    private var dropped = 0

    public init(burst: Double, perSecond: Double, reportEvery: Int64, now: Int64) {
        self.burst = burst
        self.perSecond = perSecond
        self.reportEvery = reportEvery
        tokens = burst
        refilledAt = now
        reportedAt = now
    }

    /// Whether one more may happen now.
    public mutating func hasRoom(now: Int64) -> Bool {
        let elapsed = Double(max(0, now - refilledAt)) / 1_000_000
        tokens = min(burst, tokens + elapsed * perSecond)
        refilledAt = now
        return tokens >= 1
    }

    /// One more: true when there was room for it (do it), else it is counted.
    public mutating func take(now: Int64) -> Bool {
        guard hasRoom(now: now) else {
            dropped += 1
            return false
        }
        tokens -= 1
        return true
    }

    /// Refused without asking, in bulk (lines not logged).
    public mutating func refuse(_ lines: Int) { dropped += lines }

    /// Whether it is back to a whole burst: nothing to remember.
    public mutating func isFull(now: Int64) -> Bool {
        _ = hasRoom(now: now)
        return tokens >= burst
    }

    /// What was refused since the last report, now reported.
    public mutating func takeDropped() -> Int {
        defer { dropped = 0 }
        return dropped
    }

    /// What was refused since the last report, once `reportEvery` has passed since it.
    public mutating func dueReport(now: Int64) -> Int? {
        guard dropped > 0, now - reportedAt >= reportEvery else { return nil }
        defer { dropped = 0; reportedAt = now }
        return dropped
    }
}
