import TouchCore

/// Builds kernel event streams for decoder tests, a frame at a time.
struct EventScript {
    private(set) var events: [InputEvent] = []
    private var time: Int64 = 0

    mutating func abs(_ code: UInt16, _ value: Int32) { events.append(InputEvent(time: Timestamp(microseconds: time), type: EventType.abs, code: code, value: value)) }
    mutating func key(_ code: UInt16, _ value: Int32) { events.append(InputEvent(time: Timestamp(microseconds: time), type: EventType.key, code: code, value: value)) }
    mutating func syn(_ code: UInt16 = SynCode.report, advanceMs: Int64 = 10) {
        events.append(InputEvent(time: Timestamp(microseconds: time), type: EventType.syn, code: code, value: 0))
        if code == SynCode.report { time += advanceMs * 1000 }
    }

    /// Protocol B: one slot's contact, position or lift.
    mutating func slot(_ slot: Int32, id: Int32? = nil, x: Int32? = nil, y: Int32? = nil) {
        abs(AbsCode.mtSlot, slot)
        if let id { abs(AbsCode.mtTrackingID, id) }
        if let x { abs(AbsCode.mtPositionX, x) }
        if let y { abs(AbsCode.mtPositionY, y) }
    }

    /// Protocol A: one anonymous contact.
    mutating func contact(x: Int32, y: Int32, id: Int32? = nil) {
        if let id { abs(AbsCode.mtTrackingID, id) }
        abs(AbsCode.mtPositionX, x)
        abs(AbsCode.mtPositionY, y)
        syn(SynCode.mtReport)
    }
}

enum Devices {
    static let axes = [
        AbsoluteAxis(code: AbsCode.x, minimum: 0, maximum: 1000),
        AbsoluteAxis(code: AbsCode.y, minimum: 0, maximum: 1000),
    ]
    static let mtAxes = [
        AbsoluteAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 1000),
        AbsoluteAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 1000),
        AbsoluteAxis(code: AbsCode.mtTrackingID, minimum: 0, maximum: 65535),
    ]
    static let slotted = DeviceDescription(name: "B", axes: axes + mtAxes + [AbsoluteAxis(code: AbsCode.mtSlot, minimum: 0, maximum: 9)])
    static let contactReports = DeviceDescription(name: "A", axes: axes + mtAxes)
    static let singleTouch = DeviceDescription(name: "resistive", axes: axes)
}

/// Every frame the decoder produces, each as "id:phase" words, e.g. "1:began 2:moved".
func decode(_ script: EventScript, on device: DeviceDescription, cancelAtEnd: Bool = false) -> [String] {
    var decoder = TouchDecoder(description: device)!
    var frames: [String] = []
    for event in script.events where decoder.process(event) {
        frames.append(summary(decoder.frame))
    }
    if cancelAtEnd, decoder.cancelAll(at: Timestamp(microseconds: 1_000_000_000)) {
        frames.append(summary(decoder.frame))
    }
    return frames
}

func summary(_ frame: TouchFrame) -> String {
    frame.touches.map { "\($0.id):\($0.phase.rawValue)" }.joined(separator: " ")
}
