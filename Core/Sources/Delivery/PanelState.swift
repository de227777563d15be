import TouchCore

/// What a touchscreen's events say, kept as the kernel keeps it: each slot's ABS_MT_*
/// values, the other absolute axes and the touch buttons. Both the panel and its twin are
/// one of these; feeding the twin is writing the difference. Fixed storage, made once per
/// device: applying events and copying into held frames allocate nothing.
public struct PanelState: Equatable, Sendable {
    /// ABS_MT_TOUCH_MAJOR to ABS_MT_TOOL_Y: a slot's values (ABS_MT_SLOT itself is not one).
    static let slotCodes: ClosedRange<UInt16> = 0x30...0x3d
    /// ABS_X to ABS_MISC: the axes outside slots.
    static let axisCodes: ClosedRange<UInt16> = 0x00...0x2e
    /// BTN_TOOL_PEN to BTN_TOOL_QUADTAP: BTN_TOUCH and the tool buttons.
    static let buttonCodes: ClosedRange<UInt16> = 0x140...0x14f
    static let toolType: UInt16 = 0x37
    static let palm: Int32 = 2  // MT_TOOL_PALM

    public let slotCount: Int
    /// The slot MT events go to; -1 before any is known.
    public internal(set) var currentSlot: Int
    /// Slot values, then axes, then buttons.
    var values: [Int32]

    public init(slotCount: Int) {
        self.slotCount = max(0, slotCount)
        currentSlot = self.slotCount > 0 ? 0 : -1
        values = [Int32](repeating: 0, count: Self.size(slotCount: self.slotCount))
        for slot in 0..<self.slotCount { self[slot, AbsCode.mtTrackingID] = -1 }
    }

    /// Starts from what the kernel holds (see `KernelTouchState`).
    public init(slotCount: Int, kernel: KernelTouchState) {
        self.init(slotCount: slotCount)
        if self.slotCount > 0 {
            for (slot, contact) in kernel.contacts.prefix(self.slotCount).enumerated() {
                self[slot, AbsCode.mtTrackingID] = contact.trackingID
                self[slot, AbsCode.mtPositionX] = contact.x
                self[slot, AbsCode.mtPositionY] = contact.y
            }
            if kernel.currentSlot >= 0, kernel.currentSlot < self.slotCount { currentSlot = kernel.currentSlot }
        } else if let contact = kernel.contacts.first {
            self[axis: AbsCode.x] = contact.x
            self[axis: AbsCode.y] = contact.y
            self[button: KeyCode.btnTouch] = contact.trackingID >= 0 ? 1 : 0
        }
    }

    static func size(slotCount: Int) -> Int {
        slotCount * slotCodes.count + axisCodes.count + buttonCodes.count
    }

    subscript(slot: Int, code: UInt16) -> Int32 {
        get { values[slot * Self.slotCodes.count + Int(code - Self.slotCodes.lowerBound)] }
        set { values[slot * Self.slotCodes.count + Int(code - Self.slotCodes.lowerBound)] = newValue }
    }

    subscript(axis code: UInt16) -> Int32 {
        get { values[slotCount * Self.slotCodes.count + Int(code)] }
        set { values[slotCount * Self.slotCodes.count + Int(code)] = newValue }
    }

    subscript(button code: UInt16) -> Int32 {
        get { values[slotCount * Self.slotCodes.count + Self.axisCodes.count + Int(code - Self.buttonCodes.lowerBound)] }
        set { values[slotCount * Self.slotCodes.count + Self.axisCodes.count + Int(code - Self.buttonCodes.lowerBound)] = newValue }
    }

    public func isTouching(slot: Int) -> Bool { self[slot, AbsCode.mtTrackingID] >= 0 }

    /// Any finger down: a slot with a touch, or BTN_TOUCH on a single-touch panel.
    public var fingersDown: Bool {
        slotCount > 0 ? (0..<slotCount).contains { isTouching(slot: $0) } : self[button: KeyCode.btnTouch] != 0
    }

    /// Takes in an event; false when it is not state (EV_MSC, other keys, SYN): those go
    /// with their frame as they are.
    public mutating func apply(_ event: InputEvent) -> Bool {
        switch (event.type, event.code) {
        case (EventType.abs, AbsCode.mtSlot):
            // The kernel ignores a slot out of range; so does this.
            if event.value >= 0, event.value < slotCount { currentSlot = Int(event.value) }
            return true
        case (EventType.abs, Self.slotCodes):
            if currentSlot >= 0 { self[currentSlot, event.code] = event.value }
            return true
        case (EventType.abs, Self.axisCodes):
            self[axis: event.code] = event.value
            return true
        case (EventType.key, Self.buttonCodes):
            self[button: event.code] = event.value == 0 ? 0 : 1
            return true
        default:
            return false
        }
    }

    /// Copies another state of the same panel, in place.
    mutating func assign(_ other: PanelState) {
        currentSlot = other.currentSlot
        values.withUnsafeMutableBufferPointer { target in
            other.values.withUnsafeBufferPointer { source in _ = target.update(fromContentsOf: source) }
        }
    }
}
