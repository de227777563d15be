import Gestures
import TouchCore

/// What gestured's virtual touchpad has down, and for whom: one gesture at a time (a
/// touchpad has one hand on it). Its fingers land about the touchpad's centre where the
/// gesture's fingers landed about their centroid, and move as they move, millimetre for
/// millimetre, as a touchpad reports: a frame at most every `frameIntervalMS`, the
/// movement made meanwhile in the next. libinput takes a touch that moves faster than a
/// finger can (more than 7 mm faster than the frame before, scaled to 12 ms) for a jump
/// of the sensor and drops it, so neither may a frame follow the last within a fraction
/// of a millisecond (the panel's frames can reach the daemon bunched), nor the movement
/// made before the gesture began (its threshold) be made at once: it is made up from the
/// third frame on (libinput judges a touch's second move by its first), at most
/// `catchUpMM` a finger a frame.
public struct TouchpadFingers: Sendable {
    public static let catchUpMM = 1.0
    /// A touchpad's report rate is 80 to 140 a second.
    public static let frameIntervalMS = 7.0

    public private(set) var holder: GestureHolder?
    /// Where the fingers' centroid landed on the panel, in mm: the touchpad's centre.
    private var origin = Point.zero
    /// Each finger's movement still to make up.
    private var owed: [Point] = []
    private var nextID: Int32 = 1
    private var lastFrame = Timestamp(microseconds: 0)
    /// Where the fingers are, not yet written: the frame is due at `due`.
    private var pending: [TouchTrack]?
    /// Frames moved since the landing.
    private var moves = 0

    public init() {}

    /// When the fingers' latest movement is to be written.
    public var due: Timestamp? { pending == nil ? nil : lastFrame + Self.frameIntervalMS }

    /// The fingers down, where the gesture's landed (they move with the next frame).
    /// False when the touchpad is another gesture's, or the fingers are too many.
    public mutating func begin(_ touches: [TouchTrack], by holder: GestureHolder, at time: Timestamp, into events: inout [InputEvent]) -> Bool {
        guard self.holder == nil, (1...VirtualTouchpad.slots).contains(touches.count) else { return false }
        self.holder = holder
        origin = touches.reduce(Point.zero) { $0 + $1.start } * (1 / Double(touches.count))
        owed = touches.map { $0.now - $0.start }
        let ids = touches.indices.map { _ -> Int32 in
            defer { nextID = nextID == Int32(UInt16.max) ? 1 : nextID + 1 }
            return nextID
        }
        VirtualTouchpad.appendDown(touches.map { place($0.start) }, ids: ids, to: &events)
        lastFrame = time
        pending = nil
        moves = 0
        return true
    }

    /// The fingers moved: written now if a frame is due, else with the next.
    public mutating func move(_ touches: [TouchTrack], by holder: GestureHolder, at time: Timestamp, into events: inout [InputEvent]) {
        guard self.holder == holder, touches.count == owed.count else { return }
        pending = touches
        advance(to: time, into: &events)
    }

    /// The frame due by `time`, if any.
    public mutating func advance(to time: Timestamp, into events: inout [InputEvent]) {
        guard let touches = pending, let due, due <= time else { return }
        // libinput judges a touch's second move by its first: both at the fingers' own pace.
        moves += 1
        for index in owed.indices where moves > 2 {
            let left = owed[index].length
            owed[index] = left <= Self.catchUpMM ? .zero : owed[index] * ((left - Self.catchUpMM) / left)
        }
        VirtualTouchpad.appendMove(touches.indices.map { place(touches[$0].now - owed[$0]) }, to: &events)
        lastFrame = time
        pending = nil
    }

    /// The fingers lifted (a gesture's end, or its panel gone: `holder` nil, whoever's).
    /// A movement not yet written is left out: written at once, it would be a jump.
    public mutating func end(by holder: GestureHolder?, into events: inout [InputEvent]) {
        guard let current = self.holder, holder == nil || holder == current else { return }
        VirtualTouchpad.appendUp(owed.count, to: &events)
        self.holder = nil
        owed = []
        pending = nil
    }

    private func place(_ panelMM: Point) -> Point {
        panelMM - origin + Point(x: VirtualTouchpad.widthMM / 2, y: VirtualTouchpad.heightMM / 2)
    }
}
