import TouchCore

/// What gestured's keyboard and pointer hold for the gestures under way, and for whom (a
/// panel's binding): a key or button two gestures hold goes up when the last lets go, and
/// keys a step presses leave the held ones down. Pure: the seat keeps one and writes what
/// it says; every way a gesture ends comes here as a release (`release(panel:)` for a
/// panel that goes, or every panel when the daemon stops).
public struct HeldInput: Sendable {
    private var holds: [GestureHolder: Hold] = [:]

    public init() {}

    public var isEmpty: Bool { holds.isEmpty }
    /// Who holds something, in a stable order.
    public var holders: [GestureHolder] { holds.keys.sorted() }
    public var keys: Set<UInt16> { Set(holds.values.flatMap(\.keys)) }
    private var buttons: Set<MouseButton> { Set(holds.values.compactMap(\.button)) }

    /// The holder's keys and button down (what no one holds yet), the pointer first where
    /// the fingers are. A holder already holding lets go of that first.
    public mutating func press(_ hold: Hold, by holder: GestureHolder, at location: Point,
                               keyboard: inout [InputEvent], pointer: inout [InputEvent]) {
        if holds[holder] != nil { release(holder, keyboard: &keyboard, pointer: &pointer) }
        let keysBefore = keys, buttonsBefore = buttons
        holds[holder] = hold
        if hold.pointer { VirtualInput.appendMove(to: location, to: &pointer) }
        VirtualInput.appendKeys(hold.keys.filter { !keysBefore.contains($0) }, down: true, to: &keyboard)
        if let button = hold.button, !buttonsBefore.contains(button) {
            VirtualInput.appendKeys([button.code], down: true, to: &pointer)
        }
    }

    /// The pointer where the fingers are now, for a holder that has it follow them.
    public func follow(_ holder: GestureHolder, to location: Point, pointer: inout [InputEvent]) {
        guard holds[holder]?.pointer == true else { return }
        VirtualInput.appendMove(to: location, to: &pointer)
    }

    /// The holder's keys and button up, those no one else holds: the button first, so a
    /// drag ends before super or alt goes up (else the desktop takes a plain click).
    public mutating func release(_ holder: GestureHolder, keyboard: inout [InputEvent], pointer: inout [InputEvent]) {
        guard let hold = holds.removeValue(forKey: holder) else { return }
        if let button = hold.button, !buttons.contains(button) {
            VirtualInput.appendKeys([button.code], down: false, to: &pointer)
        }
        let stillHeld = keys
        VirtualInput.appendKeys(hold.keys.reversed().filter { !stillHeld.contains($0) }, down: false, to: &keyboard)
    }

    /// What a panel's gestures hold, released (nil: every panel's): the panel is gone or
    /// let go, or the daemon stops. The holders.
    public mutating func release(panel: String?, keyboard: inout [InputEvent], pointer: inout [InputEvent]) -> [GestureHolder] {
        let theirs = holders.filter { panel == nil || $0.panel == panel }
        for holder in theirs { release(holder, keyboard: &keyboard, pointer: &pointer) }
        return theirs
    }
}
