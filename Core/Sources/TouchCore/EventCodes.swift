/// The event types and codes this project reads (linux/input-event-codes.h).
public enum EventType {
    public static let syn: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let abs: UInt16 = 0x03
    public static let sw: UInt16 = 0x05
}

public enum SwitchCode {
    /// A 2-in-1 folded into a tablet, or its keyboard taken off.
    public static let tabletMode: UInt16 = 0x01
}

public enum SynCode {
    public static let report: UInt16 = 0
    public static let mtReport: UInt16 = 2
    public static let dropped: UInt16 = 3
}

public enum AbsCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let mtSlot: UInt16 = 0x2f
    public static let mtPositionX: UInt16 = 0x35
    public static let mtPositionY: UInt16 = 0x36
    public static let mtTrackingID: UInt16 = 0x39
}

public enum KeyCode {
    public static let btnToolPen: UInt16 = 0x140
    public static let btnToolRubber: UInt16 = 0x141
    public static let btnTouch: UInt16 = 0x14a
}
