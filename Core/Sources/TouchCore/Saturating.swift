/// Conversions and sums that cannot trap. Every value measured from a device or derived
/// from one (a speed over a microsecond, a size from a resolution of 1) goes through
/// these before it becomes an integer: Swift traps on a Double beyond an integer's range
/// or NaN, and a trap here would stop the daemon.
extension Int64 {
    /// `value` rounded towards zero and clamped to the range of Int64; NaN is 0.
    @inlinable
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9.2e18 {
            self = .max
        } else if value <= -9.2e18 {
            self = .min
        } else {
            self = Int64(value)
        }
    }

    /// `self + delta`, clamped to the range of Int64 (infinity and NaN included).
    public func addingSaturated(_ delta: Double) -> Int64 {
        guard delta.isFinite, abs(delta) < 9e18 else { return delta < 0 ? .min : .max }
        let (sum, overflowed) = addingReportingOverflow(Int64(delta))
        return overflowed ? (delta < 0 ? .min : .max) : sum
    }
}

extension Int {
    /// `value` rounded towards zero and clamped to the range of Int; NaN is 0.
    @inlinable
    public init(saturating value: Double) { self = Int(Int64(saturating: value)) }
}
