/// A recording in evemu's text format: an optional device description (`N: I: P: B: A:`
/// lines) and the events (`E:` lines), with times counted from the first event.
public struct EvemuRecording: Sendable {
    public var description: DeviceDescription?
    public var events: [InputEvent]
    /// The line of the last event, to locate problems found after parsing.
    public var lastEventLine: Int
    /// The first event's time as written: where recordings made on one clock (a pen and its
    /// panel) start relative to each other.
    public var start: Timestamp

    public init(description: DeviceDescription?, events: [InputEvent], lastEventLine: Int = 0,
                start: Timestamp = Timestamp(microseconds: 0)) {
        self.description = description
        self.events = events
        self.lastEventLine = lastEventLine
        self.start = start
    }
}
