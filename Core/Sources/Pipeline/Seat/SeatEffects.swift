import TouchCore

/// What one seat step decided, kept by the seat until its next step: quinn-proto's
/// `poll`, not a callback. Iterated, it gives the effects in the order they were decided
/// (what `replay`, `run --print` and `monitor` show: a step, then what it fired);
/// `drain` gives them in the order the edge performs them (see `SeatEffect.Turn`).
///
/// Its storage is reused from step to step: the list keeps its capacity, and the events
/// of the seat's own writes go into buffers kept for it, written in place once the edge
/// has let go of the step before (no allocation for a step once the seat has warmed up).
/// Each effect's turn is kept beside it: the drain order looks at the turns, and copies
/// an effect (a step's frames and events) only to hand it over.
public struct SeatEffects: RandomAccessCollection {
    private var decided: [SeatEffect] = []
    private var turns: [SeatEffect.Turn] = []
    /// Buffers for `.write`'s events, the first `writesUsed` of them this step's.
    private var writeBuffers: [[InputEvent]] = []
    private var writesUsed = 0

    public var startIndex: Int { decided.startIndex }
    public var endIndex: Int { decided.endIndex }
    public subscript(position: Int) -> SeatEffect { decided[position] }

    init() {
        decided.reserveCapacity(32)
        turns.reserveCapacity(32)
    }

    mutating func append(_ effect: SeatEffect) {
        turns.append(effect.turn)
        decided.append(effect)
    }

    /// Events for one of gestured's devices, copied into a buffer of the seat's; none: nothing.
    mutating func write(_ device: VirtualDevice, _ events: [InputEvent]) {
        guard !events.isEmpty else { return }
        if writesUsed == writeBuffers.count { writeBuffers.append([]) }
        writeBuffers[writesUsed].removeAll(keepingCapacity: true)
        writeBuffers[writesUsed].append(contentsOf: events)
        append(.write(device, writeBuffers[writesUsed]))
        writesUsed += 1
    }

    /// A panel's step's events for its twin: the step's own storage, which its `.step` holds anyway.
    mutating func write(twinOf node: String, _ events: [InputEvent]) {
        append(.write(.twin(node), events))
    }

    /// Forgets the last step's effects, keeping the storage.
    mutating func removeAll() {
        decided.removeAll(keepingCapacity: true)
        turns.removeAll(keepingCapacity: true)
        writesUsed = 0
    }

    /// The effects in the order the edge performs them: turn by turn, each turn's in the
    /// order decided.
    public var inDrainOrder: DrainOrder { DrainOrder(decided: decided, turns: turns) }

    public struct DrainOrder: Sequence, IteratorProtocol {
        fileprivate let decided: [SeatEffect]
        fileprivate let turns: [SeatEffect.Turn]
        private var turn = 0
        private var index = 0

        fileprivate init(decided: [SeatEffect], turns: [SeatEffect.Turn]) {
            self.decided = decided
            self.turns = turns
        }

        public mutating func next() -> SeatEffect? {
            while turn < SeatEffect.Turn.inOrder.count {
                let wanted = SeatEffect.Turn.inOrder[turn]
                while index < turns.count {
                    index += 1
                    if turns[index - 1] == wanted { return decided[index - 1] }
                }
                turn += 1
                index = 0
            }
            return nil
        }
    }
}

extension SeatEffect {
    /// When the edge performs an effect among its step's: first what someone waits for
    /// that takes no process to start (the twin's and gestured's devices' events, the
    /// signals, an agent's command), then what the bus and the log say changed, then the
    /// devices to take, let go or make, then the commands (a spawn takes milliseconds),
    /// and last what only shows (the overlay, the steps' and the seat's log lines).
    public enum Turn: CaseIterable, Sendable {
        case output, control, devices, commands, shows

        static let inOrder = allCases
    }

    public var turn: Turn {
        switch self {
        case .write, .signal, .toAgent, .progress: .output
        case .control, .announce, .keepTouchLock, .wantAgents: .control
        case .ignored, .isolate, .letGo, .rescan, .virtualDevices: .devices
        case .run: .commands
        case .feedback, .inspection, .step, .dropped, .log: .shows
        }
    }
}
