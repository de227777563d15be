/// What the kernel holds for a device when reading starts. It sends only changes, so a
/// decoder that starts late (the daemon started, restarted or a panel plugged in) begins
/// from this: otherwise a finger landing where the slot's last one lifted would be at
/// (0, 0), and MT events would go to slot 0 whatever the current slot is.
public struct KernelTouchState: Equatable, Sendable {
    public struct Contact: Equatable, Sendable {
        /// -1 when no finger is on it.
        public var trackingID: Int32
        public var x: Int32
        public var y: Int32

        public init(trackingID: Int32, x: Int32, y: Int32) {
            self.trackingID = trackingID
            self.x = x
            self.y = y
        }
    }

    /// The slot MT events go to (protocol B).
    public var currentSlot: Int
    /// Each slot's contact; for a single-touch panel, one entry (tracking id 0 while BTN_TOUCH is down).
    public var contacts: [Contact]

    public init(currentSlot: Int, contacts: [Contact]) {
        self.currentSlot = currentSlot
        self.contacts = contacts
    }
}

extension TouchDecoder {
    /// Starts from the kernel's state. Fingers already down were not seen to begin: they
    /// are followed but ignored until they lift, as after SYN_DROPPED. Protocol A keeps no
    /// state in the kernel, so there is nothing to take.
    public mutating func seed(_ state: KernelTouchState) {
        guard mode != .contactReports else { return }
        for (i, contact) in state.contacts.prefix(slots.count).enumerated() {
            slots[i].x = contact.x
            slots[i].y = contact.y
            slots[i].trackingID = contact.trackingID
            slots[i].state = contact.trackingID >= 0 ? .ignored : .empty
        }
        currentSlot = state.currentSlot >= 0 && state.currentSlot < slots.count ? state.currentSlot : nil
    }
}
