import TouchCore

/// gestured's virtual touchpad: a device libinput takes for a touchpad (multitouch slots,
/// the tool-count buttons, a size in millimetres), to which `touchpad = true` hands a
/// pan or pinch so that the desktop's own touchpad gestures (GNOME's and KDE's workspace
/// and overview animations, Hyprland's and niri's) follow the fingers 1:1. Pure: the
/// kernel events of each frame; `TouchpadFingers` says which.
public enum VirtualTouchpad {
    /// Larger than any panel a gesture crosses, so that fingers placed about its centre
    /// (`TouchpadFingers`) stay on it and away from the edges libinput takes for palms.
    public static let widthMM = 600.0, heightMM = 400.0
    /// Units a millimetre: its axes' resolution.
    public static let unitsPerMM: Int32 = 10
    public static var maximum: (x: Int32, y: Int32) { (Int32(widthMM) * unitsPerMM, Int32(heightMM) * unitsPerMM) }
    /// As many slots as fingers a touchpad reports: BTN_TOOL_QUINTTAP is five.
    public static let slots = 5

    /// BTN_TOOL_FINGER, DOUBLETAP, TRIPLETAP, QUADTAP, QUINTTAP: how many fingers are down.
    public static let toolCodes: [UInt16] = [0x145, 0x14d, 0x14e, 0x14f, 0x148]
    /// A clickpad's button (libinput wants one on a touchpad); never pressed.
    public static let button: UInt16 = 0x110

    /// Fingers landing at `positions` (mm on the touchpad), with these tracking ids.
    static func appendDown(_ positions: [Point], ids: [Int32], to events: inout [InputEvent]) {
        for (index, position) in positions.enumerated() {
            append(EventType.abs, AbsCode.mtSlot, Int32(index), to: &events)
            append(EventType.abs, AbsCode.mtTrackingID, ids[index], to: &events)
            appendPosition(position, to: &events)
        }
        append(EventType.key, KeyCode.btnTouch, 1, to: &events)
        append(EventType.key, toolCodes[positions.count - 1], 1, to: &events)
        appendFirst(positions, to: &events)
    }

    /// The fingers moved to `positions`.
    static func appendMove(_ positions: [Point], to events: inout [InputEvent]) {
        for (index, position) in positions.enumerated() {
            append(EventType.abs, AbsCode.mtSlot, Int32(index), to: &events)
            appendPosition(position, to: &events)
        }
        appendFirst(positions, to: &events)
    }

    /// `count` fingers lifted.
    static func appendUp(_ count: Int, to events: inout [InputEvent]) {
        for index in 0..<count {
            append(EventType.abs, AbsCode.mtSlot, Int32(index), to: &events)
            append(EventType.abs, AbsCode.mtTrackingID, -1, to: &events)
        }
        append(EventType.key, KeyCode.btnTouch, 0, to: &events)
        append(EventType.key, toolCodes[count - 1], 0, to: &events)
        events.append(InputEvent(time: Timestamp(microseconds: 0), type: EventType.syn, code: SynCode.report, value: 0))
    }

    /// Whether a frame only moves fingers already down (`appendMove`): no finger lands or
    /// lifts in it.
    static func isMove(_ frame: [InputEvent]) -> Bool {
        !frame.contains { $0.type == EventType.key || ($0.type == EventType.abs && $0.code == AbsCode.mtTrackingID) }
    }

    /// The single-touch axes follow the first finger, and the frame ends.
    private static func appendFirst(_ positions: [Point], to events: inout [InputEvent]) {
        if let first = positions.first {
            append(EventType.abs, AbsCode.x, units(first.x, maximum.x), to: &events)
            append(EventType.abs, AbsCode.y, units(first.y, maximum.y), to: &events)
        }
        events.append(InputEvent(time: Timestamp(microseconds: 0), type: EventType.syn, code: SynCode.report, value: 0))
    }

    private static func appendPosition(_ position: Point, to events: inout [InputEvent]) {
        append(EventType.abs, AbsCode.mtPositionX, units(position.x, maximum.x), to: &events)
        append(EventType.abs, AbsCode.mtPositionY, units(position.y, maximum.y), to: &events)
    }

    private static func units(_ mm: Double, _ maximum: Int32) -> Int32 {
        let value = (mm.isFinite ? mm : 0) * Double(unitsPerMM)
        return Int32(min(max(value, 0), Double(maximum)).rounded())
    }

    private static func append(_ type: UInt16, _ code: UInt16, _ value: Int32, to events: inout [InputEvent]) {
        events.append(InputEvent(time: Timestamp(microseconds: 0), type: type, code: code, value: value))
    }
}
