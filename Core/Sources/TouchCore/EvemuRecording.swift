/// A recording in evemu's text format: an optional device description (`N: I: P: B: A:`
/// lines) and the events (`E:` lines), with times counted from the first event.
public struct EvemuRecording: Sendable {
    public var description: DeviceDescription?
    public var events: [InputEvent]
    /// The line of the last event, to locate problems found after parsing.
    public var lastEventLine: Int

    public init(description: DeviceDescription?, events: [InputEvent], lastEventLine: Int = 0) {
        self.description = description
        self.events = events
        self.lastEventLine = lastEventLine
    }
}
