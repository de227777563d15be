import Config
import ConfigParsing
import FuzzStreams
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
        let config = configurations[Int(first / 3) % 2]
        let pipeline = try! TouchscreenPipeline(devices[Int(first) % devices.count], config: config)
        pipeline.explaining = first & 0x80 != 0
        var time: Int64 = 0
        play(input.dropFirst(), on: pipeline, from: &time, gestures: config.gestures)
        // One input in 64 plays 23 more times on the same pipeline: what it holds must
        // not grow with the number of sequences. Buffers reach the size this input needs
        // (and the Swift runtime's caches what its code paths use) within a few plays, not
        // always the first: one input grew its heap from the 3rd play to the 7th and to
        // the 10th, then never again up to the 62nd. So the heap is measured after the
        // 3rd, 6th, 12th and 24th plays: a leak grows it in each of those windows, even
        // one kept in an array, whose capacity doubles. A warm-up can too: one input grew
        // by 72, 8, 184, 0, 32, 0, 0, 0 and 64 bytes in windows of 1 to 384 plays, and by
        // 432 in one window of 24. So an input grown in each window plays 96 times more,
        // and a leak is growth of 8 bytes a play in those (one object a play is 16 or
        // more; that warm-up was a few hundred bytes in all). A cancel with nothing down
        // before each count lets go of the last step's output, whose strings hold times.
        if first & 0x7e == 0x7e {
            func play(times: Int) -> Int {
                for _ in 0..<times {
                    FuzzStreams.play(input.dropFirst(), on: pipeline, from: &time, gestures: config.gestures)
                }
                pipeline.step(.cancel(Timestamp(microseconds: time))) { _ in }
                return allocatedBytes()
            }
            let heaps = [play(times: 2), play(times: 3), play(times: 6), play(times: 12)]
            if zip(heaps, heaps.dropFirst()).allSatisfy({ $0 < $1 }) {
                let after = play(times: 96)
                if after - heaps[3] >= 8 * 96 {
                    violated("the pipeline's heap grew with every window of plays of the same input: after the 3rd, 6th, 12th, 24th and 120th, \(heaps + [after]) bytes")
                }
            }
        }
        return 0
    }
}

/// Bytes the program has allocated and not freed, from AddressSanitizer's allocator.
@_silgen_name("__sanitizer_get_current_allocated_bytes")
func allocatedBytes() -> Int

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
/// between them, across modes and applications (the stream switches the gate), isolated
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
        name = "firefox-tap"
        type = "tap"
        apps = ["firefox"]
        command = "f"
        [[gesture]]
        name = "double"
        type = "tap"
        taps = 2
        not_apps = ["kitty"]
        apps_window = "touched"
        signal = true
        [[gesture]]
        name = "press"
        type = "long-press"
        fingers = 2
        mode = "maintenance"
        modes = ["*"]
        when_locked = true
        [[gesture]]
        name = "swipe"
        type = "swipe"
        requires_failure_of = ["press"]
        modes = ["maintenance"]
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
        name = "tap-hold-drag"
        type = "tap"
        taps = 2
        then = { type = "long-press", within_ms = 200, then = { type = "pan", resume_ms = 300 } }
        [[gesture]]
        name = "swipe-tap"
        type = "swipe"
        then = { type = "tap", then = { type = "checkmark" } }
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
