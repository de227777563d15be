import TouchCore

/// `scroll = true` on a pan: wheel events that follow the fingers, natural direction (the
/// content moves with them), `mmPerDetent` of movement for one notch of a wheel; with
/// `kinetic`, a fling goes on after the lift (`KineticScroll`).
public struct Scroll: Codable, Equatable, Sendable {
    public var mmPerDetent: Double
    public var kinetic: Bool

    public init(mmPerDetent: Double = Self.defaultMMPerDetent, kinetic: Bool = false) {
        self.mmPerDetent = mmPerDetent
        self.kinetic = kinetic
    }

    public static let defaultMMPerDetent = 8.0
    /// A notch in the kernel's high-resolution wheel units (REL_WHEEL_HI_RES).
    public static let unitsPerDetent = 120
}

/// Fingers' movement as wheel turns, natural scrolling: fingers moving down turn the
/// wheel up (the content follows them). Fractions of a unit, and units not yet a whole
/// notch, are kept for the next turn, so that the turns add up to the movement.
struct WheelTurn: Sendable {
    private var remainder = Point.zero
    private var notchRemainder = (vertical: 0, horizontal: 0)

    mutating func turn(_ binding: String, by moved: Point, _ scroll: Scroll) -> ScrollAction {
        let perMM = Double(Scroll.unitsPerDetent) / scroll.mmPerDetent
        let owed = Point(x: -moved.x * perMM + remainder.x, y: moved.y * perMM + remainder.y)
        // A panel is at most 10 m across: a turn this large is no movement, but cannot trap.
        let horizontal = Int(saturating: min(max(owed.x, -1e12), 1e12).rounded(.towardZero))
        let vertical = Int(saturating: min(max(owed.y, -1e12), 1e12).rounded(.towardZero))
        remainder = Point(x: owed.x - Double(horizontal), y: owed.y - Double(vertical))
        let units = Scroll.unitsPerDetent
        let notches = (vertical: notchRemainder.vertical + vertical, horizontal: notchRemainder.horizontal + horizontal)
        let verticalDetents = notches.vertical / units, horizontalDetents = notches.horizontal / units
        notchRemainder = (notches.vertical - verticalDetents * units, notches.horizontal - horizontalDetents * units)
        return ScrollAction(binding: binding, vertical: vertical, horizontal: horizontal,
                            verticalDetents: verticalDetents, horizontalDetents: horizontalDetents)
    }
}
