import TouchCore

/// The screens as the kernel's connectors last said them, and what the seat said of them:
/// a touch that woke a dark screen, and a panel whose screen still read dark after its
/// wake, are each said once for each change of the screens (a dark kiosk touched a
/// hundred times says it once).
struct SeatScreens {
    private(set) var now = Screens([])
    private var wokeSaidFor: Screens?
    private var stillDarkSaidFor: Screens?

    /// The screens as said now; false when they are as they were.
    mutating func set(_ screens: Screens) -> Bool {
        guard screens != now else { return false }
        now = screens
        return true
    }

    /// Whether a waking touch is to be said now: once for these screens.
    mutating func sayWoke() -> Bool {
        guard wokeSaidFor != now else { return false }
        wokeSaidFor = now
        return true
    }

    /// Whether a screen still dark is to be said now: once for these screens.
    mutating func sayStillDark() -> Bool {
        guard stillDarkSaidFor != now else { return false }
        stillDarkSaidFor = now
        return true
    }
}
