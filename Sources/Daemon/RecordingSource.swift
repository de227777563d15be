import TouchCore

/// A recording standing in for a device: its events are due when their time comes on
/// the touchscreen's clock, as a device's would be. It can play several rounds back to
/// back, each a second after the last one's end, for long runs.
struct RecordingSource {
    let recording: Recording
    let rounds: Int
    private var round = 0
    private var next = 0
    /// Microseconds from a round's start to the next's.
    private let period: Double

    init(_ recording: Recording, rounds: Int = 1) {
        self.recording = recording
        self.rounds = recording.events.isEmpty ? 0 : rounds
        let first = recording.events.first?.time.microseconds ?? 0, last = recording.events.last?.time.microseconds ?? 0
        period = max(0, Double(last) - Double(first)) + 1_000_000
    }

    var isFinished: Bool { round == rounds }
    /// When the next event is due, in device time.
    var nextTime: Timestamp? {
        isFinished ? nil : Timestamp(microseconds: recording.events[next].time.microseconds.addingSaturated(Double(round) * period))
    }

    /// The next event if it is due by `time`.
    mutating func nextDue(by time: Timestamp) -> InputEvent? {
        guard let due = nextTime, due <= time else { return nil }
        var event = recording.events[next]
        event.time = due
        next += 1
        if next == recording.events.count { next = 0; round += 1 }
        return event
    }
}
