/// One finger on the panel, as seen in one frame.
public struct Touch: Equatable, Sendable {
    /// Unique per decoder for the life of the touch.
    public var id: Int
    public var phase: TouchPhase
    /// Normalized 0…1, x to the right, y downwards.
    public var location: Point
    /// Where the touch was in the previous frame (equal to `location` when it began).
    public var previousLocation: Point
    public var timestamp: Timestamp

    public init(id: Int, phase: TouchPhase, location: Point, previousLocation: Point, timestamp: Timestamp) {
        self.id = id
        self.phase = phase
        self.location = location
        self.previousLocation = previousLocation
        self.timestamp = timestamp
    }
}
