import Config
import Gestures
import Pipeline
import Testing
import TouchCore

/// Writes kernel events the way a test reads: fingers go down, move and lift at
/// millimetre positions on a 300 × 200 mm protocol-B panel (100 units per mm), one
/// SYN_REPORT per frame, with the time advancing by frames. They run through the same
/// pipeline step as the daemon.
struct TouchScript {
    static let unitsPerMM = 100.0
    static let panel = DeviceDescription(name: "test panel", axes: [
        AbsoluteAxis(code: AbsCode.mtSlot, minimum: 0, maximum: 9),
        AbsoluteAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 30000, resolution: 100),
        AbsoluteAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 20000, resolution: 100),
        AbsoluteAxis(code: AbsCode.mtTrackingID, minimum: 0, maximum: 65535),
    ])

    static let geometry = DeviceGeometry(panel)!

    private(set) var inputs: [PipelineInput] = []
    /// Finger id → slot and position (mm).
    private var down: [Int: (slot: Int, x: Double, y: Double)] = [:]
    private(set) var time = Timestamp(microseconds: 0)
    /// Milliseconds between frames.
    var frameInterval = 10.0

    /// Fingers land at these positions (mm) in one frame.
    mutating func down(_ fingers: [Int: (Double, Double)]) {
        var frame: [(Int, Double, Double, land: Bool)] = []
        for (id, p) in fingers.sorted(by: { $0.key < $1.key }) {
            let used = Set(down.values.map(\.slot))
            let slot = (0...9).first { !used.contains($0) }!
            down[id] = (slot, p.0, p.1)
            frame.append((id, p.0, p.1, land: true))
        }
        emit(frame)
    }

    mutating func down(_ id: Int, at p: (Double, Double)) { down([id: p]) }

    /// Moves fingers by (dx, dy) mm each, in `steps` frames.
    mutating func move(_ deltas: [Int: (Double, Double)], steps: Int = 10) {
        for _ in 1...steps {
            var frame: [(Int, Double, Double, land: Bool)] = []
            for (id, d) in deltas.sorted(by: { $0.key < $1.key }) {
                guard let f = down[id] else { continue }
                frame.append((id, f.x + d.0 / Double(steps), f.y + d.1 / Double(steps), land: false))
            }
            emit(frame)
        }
    }

    mutating func move(_ id: Int, by d: (Double, Double), steps: Int = 10) { move([id: d], steps: steps) }

    /// Moves one finger through points (mm), one frame each.
    mutating func trace(_ id: Int, through points: [(Double, Double)]) {
        for p in points where down[id] != nil { emit([(id, p.0, p.1, land: false)]) }
    }

    mutating func up(_ ids: Int...) {
        time = time + frameInterval
        for id in ids {
            guard let f = down.removeValue(forKey: id) else { continue }
            event(EventType.abs, AbsCode.mtSlot, Int32(f.slot))
            event(EventType.abs, AbsCode.mtTrackingID, -1)
        }
        event(EventType.syn, SynCode.report, 0)
    }

    /// The device is lost with the fingers down: every touch is cancelled.
    mutating func cancelAll() {
        time = time + frameInterval
        inputs.append(.cancel(time))
        down.removeAll()
    }

    /// Fingers stay where they are for `ms`, with frames (as panels report still fingers).
    mutating func hold(_ ms: Double) {
        for _ in 0..<Int(ms / frameInterval) { emit([]) }
    }

    /// Nothing happens for `ms`: no frames.
    mutating func wait(_ ms: Double) { time = time + ms }

    private mutating func emit(_ changes: [(id: Int, x: Double, y: Double, land: Bool)]) {
        time = time + frameInterval
        for c in changes {
            let slot = down[c.id]!.slot
            down[c.id] = (slot, c.x, c.y)
            event(EventType.abs, AbsCode.mtSlot, Int32(slot))
            if c.land { event(EventType.abs, AbsCode.mtTrackingID, Int32(c.id)) }
            event(EventType.abs, AbsCode.mtPositionX, Int32((c.x * Self.unitsPerMM).rounded()))
            event(EventType.abs, AbsCode.mtPositionY, Int32((c.y * Self.unitsPerMM).rounded()))
        }
        event(EventType.syn, SynCode.report, 0)
    }

    private mutating func event(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        inputs.append(.event(InputEvent(time: time, type: type, code: code, value: value)))
    }

    /// Every step of the script through a pipeline with these gestures, then the
    /// deadlines still pending, as the daemon would run them.
    func steps(_ specs: [GestureSpec], explain: Bool = false) -> [Step] {
        steps(Configuration(gestures: specs), explain: explain)
    }

    func steps(_ config: Configuration, explain: Bool = false) -> [Step] {
        let pipeline = try! TouchscreenPipeline(Self.panel, config: config)
        pipeline.explaining = explain
        var steps: [Step] = []
        for input in inputs + [.deadline(Timestamp(microseconds: .max))] { pipeline.step(input) { steps.append($0) } }
        return steps
    }
}

/// Runs the script with these gestures and returns each event as "name phase" (plus
/// the direction when there is one); `explain` hears every state change.
func run(_ script: TouchScript, _ specs: [GestureSpec], explain: ((Transition) -> Void)? = nil) -> [String] {
    var out: [String] = []
    for step in script.steps(specs, explain: explain != nil) {
        #expect(step.bugs.isEmpty)
        out += step.events.map { e in [e.name, e.phase.rawValue, e.direction?.rawValue].compactMap { $0 }.joined(separator: " ") }
        if let explain { step.transitions.forEach(explain) }
    }
    return out
}

func gesture(_ name: String, _ type: GestureType, _ configure: (inout GestureSpec) -> Void = { _ in }) -> GestureSpec {
    var spec = GestureSpec(name: name, type: type)
    configure(&spec)
    return spec
}
