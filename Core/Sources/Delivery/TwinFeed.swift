import TouchCore

/// What has been written to a touchscreen's uinput twin, and the events that bring it to a
/// new state: the difference only, as the kernel itself sends, so that whatever was held
/// back or dropped in between, the twin ends up showing exactly the target.
public struct TwinFeed: Sendable {
    /// What the twin shows.
    public private(set) var twin: PanelState
    /// Whether the twin has ABS_MT_TOOL_TYPE (the daemon adds it when the panel lacks
    /// it): touches are then cancelled as palms, which libinput reports as TOUCH_CANCEL.
    public let cancelsAsPalm: Bool

    /// The twin starts as the panel is, without its touches (the kernel gives a new device
    /// no contacts).
    public init(panel: PanelState, cancelsAsPalm: Bool) {
        twin = panel
        self.cancelsAsPalm = cancelsAsPalm && panel.slotCount > 0
        for slot in 0..<twin.slotCount { twin[slot, AbsCode.mtTrackingID] = -1 }
        for code in PanelState.buttonCodes { twin[button: code] = 0 }
    }

    /// Appends the events that make the twin show `target`, then the frame's other events
    /// (`extras`: EV_MSC and such), then SYN_REPORT, when there is anything to say.
    public mutating func write(_ target: PanelState, extras: some Collection<InputEvent> = EmptyCollection(),
                               into out: inout [InputEvent]) {
        let start = out.count
        for slot in 0..<target.slotCount {
            let id = target[slot, AbsCode.mtTrackingID]
            if id < 0 {
                if twin.isTouching(slot: slot) { set(slot, AbsCode.mtTrackingID, -1, &out) }
                continue
            }
            if id != twin[slot, AbsCode.mtTrackingID] { set(slot, AbsCode.mtTrackingID, id, &out) }
            for code in PanelState.slotCodes where code != AbsCode.mtTrackingID && target[slot, code] != twin[slot, code] {
                set(slot, code, target[slot, code], &out)
            }
        }
        for code in PanelState.axisCodes where target[axis: code] != twin[axis: code] {
            twin[axis: code] = target[axis: code]
            out.append(Self.event(EventType.abs, code, target[axis: code]))
        }
        for code in PanelState.buttonCodes where target[button: code] != twin[button: code] {
            twin[button: code] = target[button: code]
            out.append(Self.event(EventType.key, code, target[button: code]))
        }
        out.append(contentsOf: extras)
        if out.count > start { out.append(Self.event(EventType.syn, SynCode.report, 0)) }
    }

    /// Touches the twin shows (BTN_TOUCH on a single-touch panel).
    public var touchCount: Int {
        twin.slotCount > 0 ? (0..<twin.slotCount).reduce(0) { $0 + (twin.isTouching(slot: $1) ? 1 : 0) }
                           : Int(twin[button: KeyCode.btnTouch])
    }

    /// The twin's touches are cancelled, not lifted: each becomes a palm in one frame
    /// (libinput sends TOUCH_CANCEL), then lifts in the next (libinput sends nothing more
    /// for a palm), with the touch buttons released. Without ABS_MT_TOOL_TYPE (or slots)
    /// they can only lift.
    public mutating func cancelTouches(into out: inout [InputEvent]) {
        if cancelsAsPalm {
            let start = out.count
            for slot in 0..<twin.slotCount where twin.isTouching(slot: slot) {
                set(slot, PanelState.toolType, PanelState.palm, &out)
            }
            if out.count > start { out.append(Self.event(EventType.syn, SynCode.report, 0)) }
        }
        // Back to MT_TOOL_FINGER before the lift: libinput takes a new touch in a slot
        // whose tool type is still palm for a palm, and never reports it.
        let start = out.count
        for slot in 0..<twin.slotCount where twin.isTouching(slot: slot) {
            if cancelsAsPalm { set(slot, PanelState.toolType, 0, &out) }
            set(slot, AbsCode.mtTrackingID, -1, &out)
        }
        for code in PanelState.buttonCodes where twin[button: code] != 0 {
            twin[button: code] = 0
            out.append(Self.event(EventType.key, code, 0))
        }
        if out.count > start { out.append(Self.event(EventType.syn, SynCode.report, 0)) }
    }

    /// Withheld: what the twin should show while a gesture owns the panel's touches: no
    /// touches, nothing else moved.
    public func withoutTouches(into target: inout PanelState) {
        target.assign(twin)
        for slot in 0..<target.slotCount { target[slot, AbsCode.mtTrackingID] = -1 }
        for code in PanelState.buttonCodes { target[button: code] = 0 }
    }

    private mutating func set(_ slot: Int, _ code: UInt16, _ value: Int32, _ out: inout [InputEvent]) {
        if twin.currentSlot != slot {
            twin.currentSlot = slot
            out.append(Self.event(EventType.abs, AbsCode.mtSlot, Int32(slot)))
        }
        twin[slot, code] = value
        out.append(Self.event(EventType.abs, code, value))
    }

    static func event(_ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: Timestamp(microseconds: 0), type: type, code: code, value: value)
    }
}
