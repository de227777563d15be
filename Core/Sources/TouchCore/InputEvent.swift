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
