/// Turns a device's event stream into touch frames, one per SYN_REPORT, for all three ways
/// Linux reports contacts (see `TouchProtocol`). Garbage never crashes it or leaves a touch
/// stuck: out-of-range slots are ignored, a tracking id replaced without a lift ends the old
/// touch, SYN_DROPPED cancels what was down, and `cancelAll` closes whatever is left.
///
/// Steady state allocates nothing: slots and the frame's storage are sized once. Read
/// `frame` after `process` returns true, before the next call.
public struct TouchDecoder: Sendable {
    public let geometry: DeviceGeometry
    public private(set) var frame = TouchFrame(time: Timestamp(microseconds: 0), touches: [])

    var mode: TouchProtocol
    var slots: [Slot]
    /// The slot MT events go to; nil after an out-of-range ABS_MT_SLOT until a valid one.
    var currentSlot: Int? = 0
    var nextTouchID = 1
    /// After SYN_DROPPED the kernel's events up to the next SYN_REPORT are incomplete.
    var discardingUntilReport = false
    var contactReports: ContactReports

    /// The most contacts followed at once; more are ignored (no panel reports more than 10).
    public static let maximumContacts = 32

    struct Slot {
        // What the device says now.
        var contact = false
        var trackingID: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        /// A new tracking id arrived while a contact was present: the old touch ended.
        var replaced = false
        /// The contact was down across a SYN_DROPPED or a cancel: ignored until it lifts.
        var ignoredUntilLift = false
        // What was last reported.
        var touch: Touch?
    }

    public init(geometry: DeviceGeometry, touchProtocol: TouchProtocol) {
        self.geometry = geometry
        self.mode = touchProtocol
        let slotCount = switch touchProtocol {
        case .slotted(let count): min(max(count, 1), Self.maximumContacts)
        case .contactReports: Self.maximumContacts
        case .singleTouch: 1
        }
        slots = Array(repeating: Slot(), count: slotCount)
        contactReports = ContactReports(capacity: Self.maximumContacts)
        frame.touches.reserveCapacity(slotCount * 2)
    }

    /// Nil when the description has no position axes.
    public init?(description: DeviceDescription, sizeOverride: SizeMM? = nil, orientation: Orientation = Orientation()) {
        guard let geometry = DeviceGeometry(description, sizeOverride: sizeOverride, orientation: orientation),
              let touchProtocol = description.touchProtocol else { return nil }
        self.init(geometry: geometry, touchProtocol: touchProtocol)
    }

    /// Feeds one event; true when it completed a frame with touches in it.
    public mutating func process(_ event: InputEvent) -> Bool {
        if event.type == EventType.syn {
            switch event.code {
            case SynCode.report:
                if discardingUntilReport {
                    discardingUntilReport = false
                    return cancelAll(at: event.time)
                }
                if mode == .contactReports { matchReportedContacts() }
                return emitFrame(at: event.time)
            case SynCode.mtReport:
                if !discardingUntilReport, mode == .contactReports { contactReports.commitPending() }
            case SynCode.dropped:
                discardingUntilReport = true
            default:
                break
            }
            return false
        }
        guard !discardingUntilReport else { return false }
        switch mode {
        case .slotted: processSlotted(event)
        case .contactReports: contactReports.record(event)
        case .singleTouch: processSingleTouch(event)
        }
        return false
    }

    /// Ends every touch as cancelled (device gone, events dropped, end of a recording);
    /// contacts still down are ignored until they lift. True when a frame was produced.
    public mutating func cancelAll(at time: Timestamp) -> Bool {
        frame.time = time
        frame.touches.removeAll(keepingCapacity: true)
        for i in slots.indices {
            if slots[i].contact { slots[i].ignoredUntilLift = true }
            slots[i].replaced = false
            guard var touch = slots[i].touch else { continue }
            touch.previousLocation = touch.location
            touch.phase = .cancelled
            touch.timestamp = time
            frame.touches.append(touch)
            slots[i].touch = nil
        }
        if mode == .contactReports { contactReports.ignoreUntilLift() }
        return !frame.touches.isEmpty
    }

    // MARK: Protocol B and single touch

    private mutating func processSlotted(_ event: InputEvent) {
        guard event.type == EventType.abs else { return }
        if event.code == AbsCode.mtSlot {
            currentSlot = event.value >= 0 && Int(event.value) < slots.count ? Int(event.value) : nil
            return
        }
        guard let s = currentSlot else { return }
        switch event.code {
        case AbsCode.mtTrackingID:
            if event.value < 0 {
                slots[s].contact = false
                slots[s].ignoredUntilLift = false
            } else if !slots[s].contact || event.value != slots[s].trackingID {
                if slots[s].contact { slots[s].replaced = true }
                slots[s].contact = true
                slots[s].ignoredUntilLift = false
            }
            slots[s].trackingID = event.value
        case AbsCode.mtPositionX: slots[s].x = event.value
        case AbsCode.mtPositionY: slots[s].y = event.value
        default: break
        }
    }

    private mutating func processSingleTouch(_ event: InputEvent) {
        switch (event.type, event.code) {
        case (EventType.key, KeyCode.btnTouch):
            slots[0].contact = event.value != 0
            if event.value == 0 { slots[0].ignoredUntilLift = false }
        case (EventType.abs, AbsCode.x): slots[0].x = event.value
        case (EventType.abs, AbsCode.y): slots[0].y = event.value
        default: break
        }
    }

    // MARK: Frames

    /// Compares each slot with what was last reported: the libinput "process" stage.
    private mutating func emitFrame(at time: Timestamp) -> Bool {
        frame.time = time
        frame.touches.removeAll(keepingCapacity: true)
        for i in slots.indices {
            let location = geometry.normalize(x: slots[i].x, y: slots[i].y)
            if var touch = slots[i].touch {
                if !slots[i].contact || slots[i].replaced {
                    touch.previousLocation = touch.location
                    if !slots[i].replaced { touch.location = location }
                    touch.phase = .ended
                    slots[i].touch = nil
                } else {
                    touch.previousLocation = touch.location
                    touch.location = location
                    touch.phase = location == touch.previousLocation ? .stationary : .moved
                    slots[i].touch = touch
                }
                touch.timestamp = time
                frame.touches.append(touch)
            }
            slots[i].replaced = false
            if slots[i].touch == nil, slots[i].contact, !slots[i].ignoredUntilLift {
                let touch = Touch(id: nextTouchID, phase: .began, location: location, previousLocation: location,
                                  timestamp: time, beganAt: time)
                nextTouchID += 1
                slots[i].touch = touch
                frame.touches.append(touch)
            }
        }
        return !frame.touches.isEmpty
    }
}
