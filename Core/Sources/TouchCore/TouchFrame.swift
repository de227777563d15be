/// All touches of one SYN_REPORT: those down and those that ended or were cancelled in it.
public struct TouchFrame: Sendable {
    public var time: Timestamp
    public var touches: [Touch]

    public init(time: Timestamp, touches: [Touch]) {
        self.time = time
        self.touches = touches
    }
}
