/// MT protocol A: each frame lists every contact anonymously, separated by SYN_MT_REPORT.
/// Contacts are matched to the previous frame's by tracking id when the device sends one,
/// otherwise nearest first; the rest begin or end.
struct ContactReports: Sendable {
    struct Contact {
        var x: Int32?
        var y: Int32?
        var trackingID: Int32?
        var isEmpty: Bool { x == nil && y == nil && trackingID == nil }
    }

    private(set) var contacts: [Contact] = []
    private var pending = Contact()
    /// After a cancel, contacts are ignored until a frame reports none.
    private(set) var ignoringUntilLift = false
    /// Scratch space for matching, sized once.
    var contactMatched: [Bool]
    var slotMatched: [Bool]

    init(capacity: Int) {
        contacts.reserveCapacity(capacity)
        contactMatched = Array(repeating: false, count: capacity)
        slotMatched = Array(repeating: false, count: capacity)
    }

    mutating func record(_ event: InputEvent) {
        guard event.type == EventType.abs else { return }
        switch event.code {
        case AbsCode.mtPositionX: pending.x = event.value
        case AbsCode.mtPositionY: pending.y = event.value
        case AbsCode.mtTrackingID: pending.trackingID = event.value
        default: break
        }
    }

    /// SYN_MT_REPORT, or a SYN_REPORT after contact data with no SYN_MT_REPORT of its own.
    mutating func commitPending() {
        defer { pending = Contact() }
        guard !pending.isEmpty, (pending.trackingID ?? 0) >= 0, contacts.count < contactMatched.count else { return }
        contacts.append(pending)
    }

    mutating func ignoreUntilLift() { ignoringUntilLift = true }

    /// Forgets the contacts of the frame under way (SYN_DROPPED cut it).
    mutating func discardFrame() {
        contacts.removeAll(keepingCapacity: true)
        pending = Contact()
    }

    /// Ends the frame: a frame with no contact ends the ignoring.
    mutating func endFrame() {
        if ignoringUntilLift, contacts.isEmpty { ignoringUntilLift = false }
        contacts.removeAll(keepingCapacity: true)
    }
}

extension TouchDecoder {
    /// Puts this frame's reported contacts into slots so the common frame stage can
    /// compare them with the previous frame. After a cancel every contact is ignored
    /// until a frame reports none.
    mutating func matchReportedContacts() {
        contactReports.commitPending()
        if !contactReports.ignoringUntilLift { matchContacts(contactReports.contacts) }
        contactReports.endFrame()
    }

    private mutating func matchContacts(_ contacts: [ContactReports.Contact]) {
        for i in slots.indices { contactReports.slotMatched[i] = false }
        for c in contacts.indices { contactReports.contactMatched[c] = false }

        // Same tracking id: the same finger.
        for c in contacts.indices {
            guard let id = contacts[c].trackingID,
                  let s = slots.indices.first(where: { slots[$0].hasContact && slots[$0].trackingID == id }) else { continue }
            assign(contacts[c], contact: c, toSlot: s)
        }
        // Anonymous contacts: the closest pair first, repeatedly.
        while true {
            var best: (contact: Int, slot: Int, distance: Double)?
            for c in contacts.indices where !contactReports.contactMatched[c] && contacts[c].trackingID == nil {
                for s in slots.indices where slots[s].hasContact && !contactReports.slotMatched[s] {
                    let dx = Double(contacts[c].x ?? slots[s].x) - Double(slots[s].x)
                    let dy = Double(contacts[c].y ?? slots[s].y) - Double(slots[s].y)
                    let d = dx * dx + dy * dy
                    if best.map({ d < $0.distance }) ?? true { best = (c, s, d) }
                }
            }
            guard let best else { break }
            assign(contacts[best.contact], contact: best.contact, toSlot: best.slot)
        }
        for s in slots.indices where !contactReports.slotMatched[s] && slots[s].hasContact { slots[s].lift() }
        // New fingers take slots that are free in this frame.
        for c in contacts.indices where !contactReports.contactMatched[c] {
            guard let s = slots.indices.first(where: { slots[$0].state == .empty && !contactReports.slotMatched[$0] }) else { break }
            assign(contacts[c], contact: c, toSlot: s)
        }
    }

    private mutating func assign(_ contact: ContactReports.Contact, contact index: Int, toSlot s: Int) {
        contactReports.contactMatched[index] = true
        contactReports.slotMatched[s] = true
        // Matched by id or by distance: the contact the slot already has; a free slot lands a new one.
        slots[s].land(trackingID: slots[s].hasContact ? slots[s].trackingID : (contact.trackingID ?? -1))
        slots[s].x = contact.x ?? slots[s].x
        slots[s].y = contact.y ?? slots[s].y
        slots[s].trackingID = contact.trackingID ?? -1
    }
}
