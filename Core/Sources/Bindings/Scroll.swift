/// `scroll = true` on a pan: wheel events that follow the fingers, natural direction (the
/// content moves with them), `mmPerDetent` of movement for one notch of a wheel.
public struct Scroll: Codable, Equatable, Sendable {
    public var mmPerDetent: Double

    public init(mmPerDetent: Double = Self.defaultMMPerDetent) {
        self.mmPerDetent = mmPerDetent
    }

    public static let defaultMMPerDetent = 8.0
    /// A notch in the kernel's high-resolution wheel units (REL_WHEEL_HI_RES).
    public static let unitsPerDetent = 120
}
