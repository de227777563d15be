import Config
import FuzzSupport
import Gestures
import Pipeline
import TouchCore

/// The decoder, the recognizers and the arbiter fed raw event streams (random types,
/// codes, values, slots, tracking ids, SYN_DROPPED, missing SYN_REPORT, deadlines,
/// cancels), checking more than "no crash": every touch begins once and ends or is
/// cancelled once; no frame is empty; no continuous gesture is left under way after its
/// touches are gone; the state machine reports no impossible transition.
@_cdecl("FuzzPipeline_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in
        let input = bytes(data, size)
        guard let first = input.first else { return 0 }
        let pipeline = try! TouchscreenPipeline(devices[Int(first) % devices.count], config: configurations[Int(first / 3) % 2])
        pipeline.explaining = first & 0x80 != 0
        var time: Int64 = 0
        play(input.dropFirst(), on: pipeline, from: &time)
        // One input in 64 plays ten more times on the same pipeline: what it holds must
        // not grow with the number of sequences. Buffers reach the size this input needs
        // (and the Swift runtime's caches what its code paths use) within a few plays, not
        // always the first: a heap that grows from the 3rd play to the 7th and again to
        // the 11th grows with every play. A quiet step before each count lets go of the
        // last step's output, whose strings hold times.
        if first & 0x7e == 0x7e {
            func play(times: Int) -> Int {
                for _ in 0..<times {
                    FuzzPipeline.play(input.dropFirst(), on: pipeline, from: &time)
                }
                _ = pipeline.step(.deadline(Timestamp(microseconds: time)))
                return allocatedBytes()
            }
            let third = play(times: 2), seventh = play(times: 4), eleventh = play(times: 4)
            if seventh > third, eleventh > seventh {
                violated("the pipeline held \(seventh - third) more bytes after 4 more plays of the same input, then \(eleventh - seventh) more after 4 more")
            }
        }
        return 0
    }
}

/// Plays the records, then the end: whatever is down is cancelled, then every decision
/// still waiting is made; the invariants are checked all along.
func play(_ records: ArraySlice<UInt8>, on pipeline: TouchscreenPipeline, from time: inout Int64) {
    var checker = Checker()
    var records = records
    while records.count >= 7 {
        let r = Array(records.prefix(7))
        records = records.dropFirst(7)
        time += Int64(r[2]) * 1000
        let next = decode(r, at: Timestamp(microseconds: time))
        checker.check(pipeline.step(next), from: next)
    }
    time += 1000
    checker.check(pipeline.step(.cancel(Timestamp(microseconds: time))), from: .cancel(Timestamp(microseconds: time)))
    var rounds = 0
    while let deadline = pipeline.nextDeadline, rounds < 100 {
        checker.check(pipeline.step(.deadline(deadline)), from: .deadline(deadline))
        rounds += 1
    }
    if pipeline.nextDeadline != nil { violated("deadlines keep coming after the end") }
    if !checker.touches.isEmpty { violated("touches left down after a cancel: \(checker.touches)") }
    if !checker.underWay.isEmpty { violated("gestures left under way after their touches: \(checker.underWay)") }
    if let twin = pipeline.isolation, twin.twinTouches > 0 { violated("\(twin.twinTouches) touches stuck on the twin after a cancel") }
}

/// Bytes the program has allocated and not freed, from AddressSanitizer's allocator.
@_silgen_name("__sanitizer_get_current_allocated_bytes")
func allocatedBytes() -> Int

/// One record: what it is (byte 0), a code or mode (1), the time step in ms (2), a value (3–6).
func decode(_ r: [UInt8], at time: Timestamp) -> PipelineInput {
    let raw = Int32(bitPattern: UInt32(r[3]) | UInt32(r[4]) << 8 | UInt32(r[5]) << 16 | UInt32(r[6]) << 24)
    // Mostly values in the axes' ranges, sometimes anything.
    let value = r[1] & 3 == 0 ? raw : Int32(UInt16(truncatingIfNeeded: raw) % 4200) - 40
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
    default: return .event(InputEvent(time: time, type: UInt16(r[1] % 4), code: UInt16(r[3]) | UInt16(r[4]) << 8, value: raw))
    }
}

/// What has been seen so far, and the invariants over it.
struct Checker {
    var touches = Set<Int>()
    var ended = Set<Int>()
    var underWay = Set<String>()

    mutating func check(_ step: Step, from input: PipelineInput) {
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
        } else if case .event = input, !step.events.isEmpty {
            violated("gesture events without a frame")
        }
        for event in step.events {
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

let axes = [
    AbsoluteAxis(code: AbsCode.x, minimum: 0, maximum: 4095),
    AbsoluteAxis(code: AbsCode.y, minimum: 0, maximum: 4095),
]
let mtAxes = [
    AbsoluteAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 4095, resolution: 16),
    AbsoluteAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 4095, resolution: 16),
    AbsoluteAxis(code: AbsCode.mtTrackingID, minimum: 0, maximum: 65535),
]
let devices = [
    DeviceDescription(name: "protocol B", axes: axes + mtAxes + [AbsoluteAxis(code: AbsCode.mtSlot, minimum: 0, maximum: 9)]),
    DeviceDescription(name: "protocol A", axes: axes + mtAxes),
    DeviceDescription(name: "single touch", axes: axes),
]

/// The built-in gestures, and one of each type (a learned stroke too) with relations
/// between them, isolated
/// (the twin's feed and UIKit's delivery run too).
let configurations = [
    Configuration.makeDefault(),
    try! Configuration.parse("""
        [daemon]
        isolate = true
        max_delay_ms = 200
        [[gesture]]
        name = "tap"
        type = "tap"
        command = "t"
        delays_touches_began = true
        [[gesture]]
        name = "double"
        type = "tap"
        taps = 2
        signal = true
        [[gesture]]
        name = "press"
        type = "long-press"
        fingers = 2
        [[gesture]]
        name = "swipe"
        type = "swipe"
        requires_failure_of = ["press"]
        [[gesture]]
        name = "pan"
        type = "pan"
        min_distance_mm = 0
        simultaneous_with = ["pinch"]
        [[gesture]]
        name = "pinch"
        type = "pinch"
        simultaneous_with = ["rotate"]
        [[gesture]]
        name = "rotate"
        type = "rotate"
        [[gesture]]
        name = "edge"
        type = "edge-swipe"
        edge = "left"
        [[gesture]]
        name = "check"
        type = "checkmark"
        [[gesture]]
        name = "back"
        type = "chevron"
        direction = "left"
        [[gesture]]
        name = "zed"
        type = "stroke"
        templates = [
            "81819d81b981d581f1810d812981458161817d816d9359a745bb31cf1ee20af6f60ae21ecf31bb45a759936d837f9f7fbb7fd77ff37f0f7f2b7f477f637f7f7f",
            "a481bc83d585ed8705891e8c368e4e906792669c54ad42be30ce1edf0ceffa00e811d621c432b242a1538f64956bad6bc56bde6bf66b0f6b276b406b586b716b",
        ]
        """, file: "fuzz.toml"),
]
