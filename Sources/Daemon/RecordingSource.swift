import TouchCore

/// A recording standing in for a device: its events are due when their time comes on
/// the touchscreen's clock, as a device's would be.
struct RecordingSource {
    let recording: Recording
    private var next = 0

    init(_ recording: Recording) {
        self.recording = recording
    }

    var isFinished: Bool { next == recording.events.count }
    /// When the next event is due, in device time.
    var nextTime: Timestamp? { isFinished ? nil : recording.events[next].time }

    /// The events due by `time`, in order.
    mutating func due(by time: Timestamp) -> ArraySlice<InputEvent> {
        let start = next
        while next < recording.events.count, recording.events[next].time <= time { next += 1 }
        return recording.events[start..<next]
    }
}
