import TouchCore

/// The kernel events gestured's virtual keyboard and pointer send for an action, as a
/// real keyboard or mouse sends them: every change followed by its SYN_REPORT. Pure, so
/// what reaches applications is decided and tested here; the OS edge only writes it.
public enum VirtualInput {
    /// The pointer's absolute axes span the touchscreen: 0 at its left and top edges,
    /// `pointerMaximum` at the right and bottom (as a QEMU USB tablet's).
    public static let pointerMaximum: Int32 = 65_535

    static let relWheel: UInt16 = 0x08, relHWheel: UInt16 = 0x06
    static let relWheelHiRes: UInt16 = 0x0b, relHWheelHiRes: UInt16 = 0x0c
    public static let relative: UInt16 = 0x02
    public static let wheelCodes = [relHWheel, relWheel, relWheelHiRes, relHWheelHiRes]

    /// Each chord pressed in order and released in reverse, one after the other; keys
    /// `held` for a gesture under way are left down (alt held, a step's shift+Tab).
    public static func append(_ keys: KeySequence, holding held: Set<UInt16> = [], to events: inout [InputEvent]) {
        for chord in keys.chords {
            let own = held.isEmpty ? chord : chord.filter { !held.contains($0) }
            appendKeys(own, down: true, to: &events)
            appendKeys(own.reversed(), down: false, to: &events)
        }
    }

    /// Keys or buttons going down (or up), one frame each, in the order given.
    public static func appendKeys(_ codes: [UInt16], down: Bool, to events: inout [InputEvent]) {
        for code in codes { appendChange(EventType.key, code, down ? 1 : 0, to: &events) }
    }

    /// KEY_WAKEUP, the kernel's key for waking a machine: what gestured's keyboard presses
    /// to wake a dark screen (see `appendWake`).
    public static let wakeUpKey: UInt16 = 143

    /// KEY_WAKEUP pressed and released: activity to X and every compositor, which light a
    /// dark screen on any key. Not a pointer's motion, which would move the cursor from
    /// where it was left (gestured's pointer is absolute: it would jump); not a key that
    /// types or that the desktop binds (logind acts on power, sleep and suspend keys).
    public static func appendWake(to events: inout [InputEvent]) {
        appendChange(EventType.key, wakeUpKey, 1, to: &events)
        appendChange(EventType.key, wakeUpKey, 0, to: &events)
    }

    /// Between the clicks of a double click: applications (libinput) take a press that
    /// comes within 25 ms of a release for the button bouncing, and drop it.
    public static let doubleClickGapMicroseconds: Int64 = 60_000

    /// The pointer moved to `location` (normalized over the touchscreen, clamped to it),
    /// then the button pressed and released: one click; a double click's second comes
    /// `doubleClickGapMicroseconds` later.
    public static func append(_ click: Click, at location: Point, to events: inout [InputEvent]) {
        appendMove(to: location, to: &events)
        appendChange(EventType.key, click.button.code, 1, to: &events)
        appendChange(EventType.key, click.button.code, 0, to: &events)
    }

    /// The pointer moved to `location`, normalized over the touchscreen (clamped to it).
    public static func appendMove(to location: Point, to events: inout [InputEvent]) {
        func axis(_ fraction: Double) -> Int32 {
            Int32((min(max(fraction.isFinite ? fraction : 0, 0), 1) * Double(pointerMaximum)).rounded())
        }
        events.append(InputEvent(time: Timestamp(microseconds: 0), type: EventType.abs, code: AbsCode.x, value: axis(location.x)))
        appendChange(EventType.abs, AbsCode.y, axis(location.y), to: &events)
    }

    /// One frame of wheel movement: the high-resolution units, and whole notches for
    /// applications that read only those.
    public static func append(_ turn: ScrollAction, to events: inout [InputEvent]) {
        let values: [(UInt16, Int)] = [(relWheelHiRes, turn.vertical), (relHWheelHiRes, turn.horizontal),
                                       (relWheel, turn.verticalDetents), (relHWheel, turn.horizontalDetents)]
        let before = events.count
        for (code, value) in values where value != 0 {
            events.append(InputEvent(time: Timestamp(microseconds: 0), type: relative, code: code, value: Int32(clamping: value)))
        }
        if events.count > before { appendChange(nil, 0, 0, to: &events) }
    }

    /// An event and the SYN_REPORT that ends its frame (only the report for a nil type).
    private static func appendChange(_ type: UInt16?, _ code: UInt16, _ value: Int32, to events: inout [InputEvent]) {
        if let type { events.append(InputEvent(time: Timestamp(microseconds: 0), type: type, code: code, value: value)) }
        events.append(InputEvent(time: Timestamp(microseconds: 0), type: EventType.syn, code: SynCode.report, value: 0))
    }
}
