/// A recording ready to replay: its events and the description of the device that made them.
public struct Recording: Sendable {
    public var path: String
    public var description: DeviceDescription
    public var events: [InputEvent]
    /// The line of the last event, for a truncated recording's error.
    public var lastEventLine: Int
    /// The first event's time as written (`events` count from it).
    public var start: Timestamp

    public init(path: String, description: DeviceDescription, events: [InputEvent], lastEventLine: Int,
                start: Timestamp = Timestamp(microseconds: 0)) {
        self.path = path
        self.description = description
        self.events = events
        self.lastEventLine = lastEventLine
        self.start = start
    }
}
