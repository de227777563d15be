import TouchCore

/// What gestured's keyboard and pointer hold for the gestures under way, and for whom (a
/// panel's binding): a key or button two gestures hold goes up when the last lets go, and
/// keys a step presses leave the held ones down. Pure: the seat keeps one and writes what
/// it says; every way a gesture ends comes here as a release (`release(panel:)` for a
/// panel that goes, `releaseAll` when the daemon stops).
public struct HeldInput: Sendable {
    public struct Holder: Hashable, Comparable, Sendable {
        public var panel: String
        public var binding: String

        public init(panel: String, binding: String) {
            self.panel = panel
            self.binding = binding
        }

        public static func < (a: Holder, b: Holder) -> Bool { (a.panel, a.binding) < (b.panel, b.binding) }
    }

    private var holds: [Holder: Hold] = [:]

    public init() {}

    public var isEmpty: Bool { holds.isEmpty }
    /// Who holds something, in a stable order.
    public var holders: [Holder] { holds.keys.sorted() }
    public var keys: Set<UInt16> { Set(holds.values.flatMap(\.keys)) }
    private var buttons: Set<MouseButton> { Set(holds.values.compactMap(\.button)) }

    /// The holder's keys and button down (what no one holds yet), the pointer first where
    /// the fingers are. A holder already holding lets go of that first.
    public mutating func press(_ hold: Hold, by holder: Holder, at location: Point,
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
    public func follow(_ holder: Holder, to location: Point, pointer: inout [InputEvent]) {
        guard holds[holder]?.pointer == true else { return }
        VirtualInput.appendMove(to: location, to: &pointer)
    }

    /// The holder's keys and button up, those no one else holds: the button first, so a
    /// drag ends before super or alt goes up (else the desktop takes a plain click).
    public mutating func release(_ holder: Holder, keyboard: inout [InputEvent], pointer: inout [InputEvent]) {
        guard let hold = holds.removeValue(forKey: holder) else { return }
        if let button = hold.button, !buttons.contains(button) {
            VirtualInput.appendKeys([button.code], down: false, to: &pointer)
        }
        let stillHeld = keys
        VirtualInput.appendKeys(hold.keys.reversed().filter { !stillHeld.contains($0) }, down: false, to: &keyboard)
    }

    /// What a panel's gestures hold, released: the panel is gone or let go. The holders.
    public mutating func release(panel: String, keyboard: inout [InputEvent], pointer: inout [InputEvent]) -> [Holder] {
        let theirs = holders.filter { $0.panel == panel }
        for holder in theirs { release(holder, keyboard: &keyboard, pointer: &pointer) }
        return theirs
    }

    /// Everything released: the daemon stops.
    public mutating func releaseAll(keyboard: inout [InputEvent], pointer: inout [InputEvent]) -> [Holder] {
        let all = holders
        for holder in all { release(holder, keyboard: &keyboard, pointer: &pointer) }
        return all
    }
}
