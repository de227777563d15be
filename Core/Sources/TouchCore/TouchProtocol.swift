public enum TouchProtocol: Equatable, Sendable {
    /// MT protocol B: ABS_MT_SLOT and ABS_MT_TRACKING_ID.
    case slotted(slotCount: Int)
    /// MT protocol A: anonymous contacts separated by SYN_MT_REPORT.
    case contactReports
    /// BTN_TOUCH with ABS_X/ABS_Y (resistive kiosk panels).
    case singleTouch
}
