import Gestures
import TouchCore

/// Writes touch frames the way a test reads: fingers go down, move and lift at
/// millimetre positions on a 300 × 200 mm panel, with the time advancing by frames.
struct TouchScript {
    static let geometry = DeviceGeometry(
        xAxis: AbsoluteAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 3000, resolution: 10),
        yAxis: AbsoluteAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 2000, resolution: 10))

    private(set) var frames: [TouchFrame] = []
    private var down: [Int: Touch] = [:]
    private(set) var time = Timestamp(microseconds: 0)
    /// Milliseconds between frames.
    var frameInterval = 10.0

    private static func normalized(_ x: Double, _ y: Double) -> Point { Point(x: x / 300, y: y / 200) }

    /// Fingers land at these positions (mm) in one frame.
    mutating func down(_ fingers: [Int: (Double, Double)]) {
        var changes: [Touch] = []
        for (id, p) in fingers.sorted(by: { $0.key < $1.key }) {
            let location = Self.normalized(p.0, p.1)
            changes.append(Touch(id: id, phase: .began, location: location, previousLocation: location, timestamp: time, beganAt: time))
        }
        emit(changes)
    }

    mutating func down(_ id: Int, at p: (Double, Double)) { down([id: p]) }

    /// Moves fingers by (dx, dy) mm each, in `steps` frames.
    mutating func move(_ deltas: [Int: (Double, Double)], steps: Int = 10) {
        for _ in 1...steps {
            var changes: [Touch] = []
            for (id, d) in deltas.sorted(by: { $0.key < $1.key }) {
                guard var t = down[id] else { continue }
                t.previousLocation = t.location
                t.location = t.location + Self.normalized(d.0, d.1) * (1 / Double(steps))
                t.phase = .moved
                changes.append(t)
            }
            emit(changes)
        }
    }

    mutating func move(_ id: Int, by d: (Double, Double), steps: Int = 10) { move([id: d], steps: steps) }

    /// Moves one finger through points (mm), one frame each.
    mutating func trace(_ id: Int, through points: [(Double, Double)]) {
        for p in points {
            guard var t = down[id] else { return }
            t.previousLocation = t.location
            t.location = Self.normalized(p.0, p.1)
            t.phase = .moved
            emit([t])
        }
    }

    mutating func up(_ ids: Int...) {
        emit(ids.compactMap { id in
            guard var t = down[id] else { return nil }
            t.phase = .ended
            return t
        })
    }

    mutating func cancelAll() {
        emit(down.values.sorted { $0.id < $1.id }.map { t in
            var t = t
            t.phase = .cancelled
            return t
        })
    }

    /// Fingers stay where they are for `ms`, with frames (as panels report still fingers).
    mutating func hold(_ ms: Double) {
        let frames = Int(ms / frameInterval)
        for _ in 0..<frames { emit([]) }
    }

    /// Nothing happens for `ms`: no frames.
    mutating func wait(_ ms: Double) { time = time + ms }

    private mutating func emit(_ changes: [Touch]) {
        time = time + frameInterval
        var touches: [Touch] = []
        for var t in down.values.sorted(by: { $0.id < $1.id }) where !changes.contains(where: { $0.id == t.id }) {
            t.previousLocation = t.location
            t.phase = .stationary
            t.timestamp = time
            touches.append(t)
            down[t.id] = t
        }
        for var t in changes {
            t.timestamp = time
            if t.phase == .began { t.beganAt = time }
            touches.append(t)
            down[t.id] = t.phase.isDown ? t : nil
        }
        touches.sort { $0.id < $1.id }
        frames.append(TouchFrame(time: time, touches: touches))
    }
}

/// Runs the frames through an arbiter with these gestures, deadlines included, and
/// returns each event as "name phase" (plus the direction when there is one).
func run(_ script: TouchScript, _ specs: [GestureSpec], explain: ((Transition) -> Void)? = nil) -> [String] {
    let arbiter = Arbiter(gestures: specs, geometry: TouchScript.geometry)
    arbiter.explaining = explain != nil
    var out: [String] = []
    func collect() {
        out += arbiter.events.map { e in [e.name, e.phase.rawValue, e.direction?.rawValue].compactMap { $0 }.joined(separator: " ") }
        if let explain { arbiter.transitions.forEach(explain) }
        arbiter.transitions.removeAll()
    }
    for frame in script.frames {
        arbiter.process(frame)
        collect()
    }
    arbiter.advance(to: script.time + 10_000)
    collect()
    return out
}

func gesture(_ name: String, _ type: GestureType, _ configure: (inout GestureSpec) -> Void = { _ in }) -> GestureSpec {
    var spec = GestureSpec(name: name, type: type)
    configure(&spec)
    return spec
}
