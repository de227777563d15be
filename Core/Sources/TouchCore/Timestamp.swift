/// A point in time, in microseconds. Recordings count from their first event; live devices
/// use the kernel's monotonic clock. Recognizers compare these, they never read a clock.
public struct Timestamp: Comparable, Hashable, Sendable {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }
    public init(seconds: Double) { self.microseconds = Int64(saturating: (seconds * 1_000_000).rounded()) }

    public var seconds: Double { Double(microseconds) / 1_000_000 }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }
    /// Saturates instead of overflowing: a deadline past the end of time never comes.
    public static func + (t: Timestamp, milliseconds: Double) -> Timestamp {
        Timestamp(microseconds: t.microseconds.addingSaturated((milliseconds * 1000).rounded()))
    }
    /// The earlier of two deadlines, either of which may be none.
    @inlinable public static func earlier(_ a: Timestamp?, _ b: Timestamp?) -> Timestamp? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }
    /// Milliseconds from `earlier` to `self`.
    public func milliseconds(since earlier: Timestamp) -> Double {
        (Double(microseconds) - Double(earlier.microseconds)) / 1000
    }
}
