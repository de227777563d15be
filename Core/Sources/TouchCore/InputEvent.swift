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
    /// Milliseconds from `earlier` to `self`.
    public func milliseconds(since earlier: Timestamp) -> Double {
        (Double(microseconds) - Double(earlier.microseconds)) / 1000
    }
}

/// One kernel input event (`struct input_event`), as read from a device or a recording.
public struct InputEvent: Equatable, Sendable {
    public var time: Timestamp
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: Timestamp, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }
}

/// The event types and codes this project reads (linux/input-event-codes.h).
public enum EventType {
    public static let syn: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let abs: UInt16 = 0x03
}

public enum SynCode {
    public static let report: UInt16 = 0
    public static let mtReport: UInt16 = 2
    public static let dropped: UInt16 = 3
}

public enum AbsCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let mtSlot: UInt16 = 0x2f
    public static let mtPositionX: UInt16 = 0x35
    public static let mtPositionY: UInt16 = 0x36
    public static let mtTrackingID: UInt16 = 0x39
}

public enum KeyCode {
    public static let btnTouch: UInt16 = 0x14a
}
