import TouchCore

/// A test panel's kernel events, written one after the other: each SYN_REPORT ends a
/// frame and moves the clock on 10 ms.
struct EventWriter {
    var time: Timestamp
    var events: [InputEvent] = []

    init(at seconds: Double) { time = Timestamp(seconds: seconds) }

    mutating func abs(_ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: time, type: EventType.abs, code: code, value: value))
    }

    mutating func syn() {
        events.append(InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0))
        time = time + 10
    }
}
