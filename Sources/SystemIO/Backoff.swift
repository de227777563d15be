/// When to try a peer again once it went away (a bus, a desktop's socket): a wait that
/// doubles from `first` to `longest`, from the first again once the peer is back.
/// Monotonic microseconds.
public struct Backoff: Sendable {
    public let first: Int64
    public let longest: Int64
    /// The wait before the next try.
    public private(set) var delay: Int64

    public init(first: Int64, longest: Int64 = 60_000_000) {
        self.first = first
        self.longest = longest
        delay = first
    }

    /// The time of the next try from `now`; the wait after it doubles.
    public mutating func next(after now: Int64) -> Int64 {
        defer { delay = min(delay * 2, longest) }
        return now + delay
    }

    /// The peer is back: the next time it goes, the first wait again.
    public mutating func reset() { delay = first }
}
