/// Turns a device's event stream into touch frames, one per SYN_REPORT, for all three ways
/// Linux reports contacts (see `TouchProtocol`). Garbage never crashes it or leaves a touch
/// stuck: out-of-range slots are ignored, a tracking id replaced without a lift ends the old
/// touch, SYN_DROPPED cancels what was down, and `cancelAll` closes whatever is left.
///
/// Steady state allocates nothing: slots and the frame's storage are sized once. Read
/// `frame` after `process` returns true, before the next call.
public struct TouchDecoder: Sendable {
    public private(set) var geometry: DeviceGeometry
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

    /// A slot's contact between two frames, libinput's touch states: every event and every
    /// frame is one exhaustive switch over it.
    enum SlotState: Equatable {
        /// No contact.
        case empty
        /// A contact the next frame reports as began.
        case landing
        /// A contact reported as this touch.
        case down(Touch)
        /// The contact lifted: the next frame ends the touch.
        case lifting(Touch)
        /// A new tracking id came without a lift: the next frame ends the touch and begins the new contact.
        case replaced(Touch)
        /// Down across a SYN_DROPPED or a cancel: ignored until it lifts.
        case ignored
    }

    struct Slot {
        var state = SlotState.empty
        /// What the device says now.
        var trackingID: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0

        /// Whether a contact is on the panel now (reported or not).
        var hasContact: Bool {
            switch state {
            case .empty, .lifting: false
            case .landing, .down, .replaced, .ignored: true
            }
        }

        /// A contact with this tracking id is present (protocol B's ABS_MT_TRACKING_ID ≥ 0,
        /// BTN_TOUCH 1, a matched protocol A contact).
        mutating func land(trackingID id: Int32) {
            defer { trackingID = id }
            switch state {
            case .empty: state = .landing
            case .landing, .replaced: break
            case .down(let touch): if id != trackingID { state = .replaced(touch) }
            case .lifting(let touch): state = .replaced(touch)
            case .ignored: if id != trackingID { state = .landing }
            }
        }

        /// The contact is gone (tracking id -1, BTN_TOUCH 0, an unmatched protocol A contact).
        mutating func lift() {
            trackingID = -1
            switch state {
            case .empty, .landing, .ignored: state = .empty
            case .down(let touch), .lifting(let touch), .replaced(let touch): state = .lifting(touch)
            }
        }
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

    /// Whether any reported touch is down.
    public var fingersDown: Bool {
        slots.contains { slot in
            switch slot.state {
            case .down, .lifting, .replaced: true
            case .empty, .landing, .ignored: false
            }
        }
    }

    /// New geometry (a reload's rotation or size) for the touches to come; only between
    /// touch sequences, so no touch changes its frame of reference midway.
    public mutating func reorient(_ geometry: DeviceGeometry) {
        self.geometry = geometry
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
                // What protocol A reported of the frame so far is as incomplete as the rest.
                if mode == .contactReports { contactReports.discardFrame() }
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
            let stillDown = slots[i].hasContact && mode != .contactReports  // protocol A ignores in ContactReports
            switch slots[i].state {
            case .empty, .landing, .ignored:
                break
            case .down(var touch), .lifting(var touch), .replaced(var touch):
                touch.previousLocation = touch.location
                touch.phase = .cancelled
                touch.timestamp = time
                frame.touches.append(touch)
            }
            slots[i].state = stillDown ? .ignored : .empty
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
        case AbsCode.mtTrackingID: event.value < 0 ? slots[s].lift() : slots[s].land(trackingID: event.value)
        case AbsCode.mtPositionX: slots[s].x = event.value
        case AbsCode.mtPositionY: slots[s].y = event.value
        default: break
        }
    }

    private mutating func processSingleTouch(_ event: InputEvent) {
        switch (event.type, event.code) {
        case (EventType.key, KeyCode.btnTouch): event.value == 0 ? slots[0].lift() : slots[0].land(trackingID: 0)
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
            // Only a slot with a touch has a place worth the calibration's arithmetic.
            if slots[i].state == .empty || slots[i].state == .ignored { continue }
            let location = geometry.normalize(x: slots[i].x, y: slots[i].y)
            switch slots[i].state {
            case .empty, .ignored:
                break  // skipped above
            case .landing:
                begin(slot: i, at: location, time)
            case .down(var touch):
                touch.previousLocation = touch.location
                touch.location = location
                touch.phase = location == touch.previousLocation ? .stationary : .moved
                touch.timestamp = time
                frame.touches.append(touch)
                slots[i].state = .down(touch)
            case .lifting(var touch):
                touch.previousLocation = touch.location
                touch.location = location
                touch.phase = .ended
                touch.timestamp = time
                frame.touches.append(touch)
                slots[i].state = .empty
            case .replaced(var touch):
                // The old finger ended where it was last seen; the new one begins here.
                touch.previousLocation = touch.location
                touch.phase = .ended
                touch.timestamp = time
                frame.touches.append(touch)
                begin(slot: i, at: location, time)
            }
        }
        return !frame.touches.isEmpty
    }

    private mutating func begin(slot i: Int, at location: Point, _ time: Timestamp) {
        let touch = Touch(id: nextTouchID, phase: .began, location: location, previousLocation: location, timestamp: time)
        nextTouchID += 1
        slots[i].state = .down(touch)
        frame.touches.append(touch)
    }
}
