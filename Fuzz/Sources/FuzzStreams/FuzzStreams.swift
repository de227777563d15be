import FuzzSupport
import Gestures
import Pipeline
import TouchCore

// What the pipeline fuzzers share: event streams from 7-byte records, and the invariants.

/// How records become events: the time a record's step byte stands for, and the
/// positions its in-range values span.
public struct StreamShape: Sendable {
    public var microseconds: @Sendable (UInt8) -> Int64
    public var positions: ClosedRange<Int64>

    public init(microseconds: @escaping @Sendable (UInt8) -> Int64, positions: ClosedRange<Int64>) {
        self.microseconds = microseconds
        self.positions = positions
    }

    /// Steps in milliseconds over a 4096-unit panel (a little beyond it too).
    public static let panel = StreamShape(microseconds: { Int64($0) * 1000 }, positions: -40...4159)
}

/// Plays the records, then the end: whatever is down is cancelled, then every decision
/// still waiting is made; the invariants are checked all along, and `observe` sees each
/// step. `gestures`: the pipeline's, to check that none a gate excludes begins after it.
public func play(_ records: ArraySlice<UInt8>, on pipeline: TouchscreenPipeline, from time: inout Int64,
                 shape: StreamShape = .panel, gestures: [GestureSpec] = [], observe: (Step) -> Void = { _ in }) {
    var checker = Checker(gestures: gestures)
    var records = records
    func step(_ input: PipelineInput) {
        pipeline.step(input) { step in
            checker.check(step)
            observe(step)
        }
    }
    while records.count >= 7 {
        let r = Array(records.prefix(7))
        records = records.dropFirst(7)
        time += shape.microseconds(r[2])
        // One record in 32 switches what may fire (mode, pause, lock, the application in
        // front, where the windows are) and whether the screen is lit, as the daemon does
        // at any moment: in force at once, mid-gesture as between sequences (another
        // application, or a dark screen's waking touch, from the next sequence).
        if r[0] & 31 == 31 {
            pipeline.setScreens(Screens([.init(name: "eDP-1", lit: r[3] & 32 == 0)]))
            let app = r[3] & 4 == 0 ? nil : AppInFront(appID: r[3] & 8 == 0 ? "firefox" : "kitty", source: "fuzz")
            let gate = GestureGate(mode: r[1] & 1 == 0 ? "default" : "maintenance", paused: r[3] & 1 != 0, locked: r[3] & 2 != 0, app: app,
                                   windows: r[3] & 16 == 0 ? nil : windows(r))
            step(.gate(gate, at: Timestamp(microseconds: time)))
            continue
        }
        step(decode(r, at: Timestamp(microseconds: time), positions: shape.positions))
    }
    time += 1000
    step(.cancel(Timestamp(microseconds: time)))
    step(.deadline(Timestamp(microseconds: .max)))
    if pipeline.nextDeadline != nil { violated("deadlines keep coming after the end") }
    if !checker.touches.isEmpty { violated("touches left down after a cancel: \(checker.touches)") }
    if !checker.underWay.isEmpty { violated("gestures left under way after their touches: \(checker.underWay)") }
    if let twin = pipeline.isolation, twin.twinTouches > 0 { violated("\(twin.twinTouches) touches stuck on the twin after a cancel") }
}

/// firefox and kitty side by side on a screen the record shapes, any size or place (a
/// peer's numbers), kitty on top where they overlap.
func windows(_ r: [UInt8]) -> WindowLayout? {
    let width = Int32(bitPattern: UInt32(r[4]) << 24 | UInt32(r[5]) << 8 | 1), height = Int32(r[6]) * 8 + 1
    let x = r[1] & 2 == 0 ? 0 : Int32.min + Int32(r[5])
    func window(_ app: String, _ left: Int32) -> WindowLayout.Window {
        WindowLayout.Window(frame: .init(x: left, y: 0, width: width / 2 + 1, height: height), app: AppInFront(appID: app, source: "fuzz"))
    }
    return WindowLayout(screen: .init(x: x, y: 0, width: width, height: height),
                        windows: [window("kitty", x &+ width / 2), window("firefox", x)], source: "fuzz")
}

/// One record: what it is (byte 0), a code or mode (1), the time step (2), a value (3–6).
public func decode(_ r: [UInt8], at time: Timestamp, positions: ClosedRange<Int64> = StreamShape.panel.positions) -> PipelineInput {
    let unsigned = UInt32(r[3]) | UInt32(r[4]) << 8 | UInt32(r[5]) << 16 | UInt32(r[6]) << 24
    let raw = Int32(bitPattern: unsigned)
    // Mostly values in the axes' ranges, sometimes anything.
    let span = UInt64(positions.upperBound - positions.lowerBound) + 1
    let value = r[1] & 3 == 0 ? raw : Int32(truncatingIfNeeded: positions.lowerBound + Int64(UInt64(unsigned) % span))
    func abs(_ code: UInt16, _ v: Int32) -> PipelineInput { .event(InputEvent(time: time, type: EventType.abs, code: code, value: v)) }
    func syn(_ code: UInt16) -> PipelineInput { .event(InputEvent(time: time, type: EventType.syn, code: code, value: 0)) }
    switch r[0] % 16 {
    case 0: return abs(AbsCode.mtSlot, r[1] & 3 == 0 ? raw : Int32(r[3] % 12) - 1)
    case 1: return abs(AbsCode.mtTrackingID, r[1] & 3 == 0 ? raw : Int32(r[3] % 8) - 1)
    case 2, 3: return abs(AbsCode.mtPositionX, value)
    case 4: return abs(AbsCode.mtPositionY, value)
    case 5: return abs(r[1] & 1 == 0 ? AbsCode.x : AbsCode.y, value)
    case 6: return .event(InputEvent(time: time, type: EventType.key, code: KeyCode.btnTouch, value: Int32(r[3] & 1)))
    case 7, 8, 9: return syn(SynCode.report)
    case 10: return syn(SynCode.mtReport)
    case 11: return syn(SynCode.dropped)
    case 12: return .deadline(time)
    case 13: return .cancel(time)
    case 14 where r[1] & 0x80 != 0: return .silence(r[1] & 1 == 0, at: time)
    default: return .event(InputEvent(time: time, type: UInt16(r[1] % 4), code: UInt16(r[3]) | UInt16(r[4]) << 8, value: raw))
    }
}

/// What has been seen so far, and the invariants over it.
public struct Checker {
    public var touches = Set<Int>()
    public var ended = Set<Int>()
    public var underWay = Set<String>()
    /// The pipeline's gestures, and those the last gate keeps from firing: none of them
    /// may begin or be recognized after the gate's own step (the deadlines due before it
    /// run first).
    let gestures: [GestureSpec]
    var excluded = Set<String>()

    public init(gestures: [GestureSpec] = []) {
        self.gestures = gestures
    }

    public mutating func check(_ step: Step) {
        if case .gate(let gate, _) = step.input {
            excluded = Set(gestures.filter { gate.exclusion(of: $0) != nil }.map(\.name))
        }
        if !step.bugs.isEmpty { violated("state machine bugs: \(step.bugs)") }
        if let frame = step.frame {
            if frame.touches.isEmpty { violated("an empty frame") }
            if frame.touches.count > TouchDecoder.maximumContacts * 2 { violated("\(frame.touches.count) touches in a frame") }
            for touch in frame.touches {
                switch touch.phase {
                case .began:
                    if touches.contains(touch.id) || ended.contains(touch.id) { violated("touch \(touch.id) began twice") }
                    touches.insert(touch.id)
                case .moved, .stationary:
                    if !touches.contains(touch.id) { violated("touch \(touch.id) \(touch.phase) without beginning") }
                case .ended, .cancelled:
                    if touches.remove(touch.id) == nil { violated("touch \(touch.id) \(touch.phase) twice or never began") }
                    ended.insert(touch.id)
                }
            }
        } else if case .event = step.input, !step.events.isEmpty {
            violated("gesture events without a frame")
        }
        for event in step.events {
            if event.phase == .began || event.phase == .recognized, excluded.contains(event.name) {
                violated("\(event.name) \(event.phase) after a gate that excludes it")
            }
            switch event.phase {
            case .recognized: break
            case .began:
                if !underWay.insert(event.name).inserted { violated("\(event.name) began twice") }
            case .changed:
                if !underWay.contains(event.name) { violated("\(event.name) changed without beginning") }
            case .ended, .cancelled:
                if underWay.remove(event.name) == nil { violated("\(event.name) \(event.phase) without beginning") }
            }
        }
    }
}
