import TouchCore

/// Frames held back from the twin, oldest first, in storage made once: each is the
/// panel's state after the frame and the frame's other events (EV_MSC and such).
struct HeldFrames {
    static let extrasPerFrame = 8
    let capacity: Int
    private let stateSize: Int
    private var states: [Int32]
    private var slots: [Int]
    private var times: [Timestamp]
    private var extras: [InputEvent]
    private var extraCounts: [Int]
    private var first = 0
    private(set) var count = 0

    init(capacity: Int, slotCount: Int) {
        self.capacity = capacity
        stateSize = PanelState.size(slotCount: slotCount)
        states = [Int32](repeating: 0, count: capacity * stateSize)
        slots = [Int](repeating: 0, count: capacity)
        times = [Timestamp](repeating: Timestamp(microseconds: 0), count: capacity)
        extras = [InputEvent](repeating: InputEvent(time: Timestamp(microseconds: 0), type: 0, code: 0, value: 0),
                              count: capacity * Self.extrasPerFrame)
        extraCounts = [Int](repeating: 0, count: capacity)
    }

    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count == capacity }
    var oldestTime: Timestamp? { isEmpty ? nil : times[first] }

    /// Keeps a frame; the caller makes room first (`isFull`). Extras beyond
    /// `extrasPerFrame` are not kept.
    mutating func push(_ state: PanelState, extras frameExtras: [InputEvent], at time: Timestamp) {
        let index = (first + count) % capacity
        count += 1
        states.withUnsafeMutableBufferPointer { storage in
            state.values.withUnsafeBufferPointer { source in
                _ = UnsafeMutableBufferPointer(rebasing: storage[index * stateSize ..< (index + 1) * stateSize])
                    .update(fromContentsOf: source)
            }
        }
        slots[index] = state.currentSlot
        times[index] = time
        let kept = min(frameExtras.count, Self.extrasPerFrame)
        for i in 0..<kept { extras[index * Self.extrasPerFrame + i] = frameExtras[i] }
        extraCounts[index] = kept
    }

    /// Takes the oldest frame into `state` and returns its extras.
    mutating func popOldest(into state: inout PanelState) -> ArraySlice<InputEvent> {
        let index = first
        first = (first + 1) % capacity
        count -= 1
        state.values.withUnsafeMutableBufferPointer { target in
            states.withUnsafeBufferPointer { storage in
                _ = target.update(fromContentsOf: storage[index * stateSize ..< (index + 1) * stateSize])
            }
        }
        state.currentSlot = slots[index]
        let start = index * Self.extrasPerFrame
        return extras[start ..< start + extraCounts[index]]
    }

    mutating func removeAll() {
        first = 0
        count = 0
    }
}
