import Benchmark
import Bindings
import Config
import ConfigParsing
import Foundation
import Pipeline
import TouchCore

/// A three-finger drag on a 10-slot panel, as kernel events: the steady state of a
/// gesture under way, frame after frame.
func threeFingerDrag(frames: Int) -> [InputEvent] {
    var events: [InputEvent] = []
    var t: Int64 = 0
    func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: Timestamp(microseconds: t), type: type, code: code, value: value))
    }
    for frame in 0..<frames {
        for finger in 0..<3 {
            add(EventType.abs, AbsCode.mtSlot, Int32(finger))
            if frame == 0 { add(EventType.abs, AbsCode.mtTrackingID, Int32(finger + 1)) }
            add(EventType.abs, AbsCode.mtPositionX, Int32(1000 + finger * 300))
            add(EventType.abs, AbsCode.mtPositionY, Int32(200 + frame % 1500))
        }
        add(EventType.syn, SynCode.report, 0)
        t += 8000
    }
    return events
}

/// A checkmark as kernel events: 15 frames down-right, 35 up-right; then its lift.
func checkmark(id: Int32 = 1, at start: Int64 = 0) -> (stroke: [InputEvent], lift: [InputEvent]) {
    var events: [InputEvent] = []
    var t = start
    func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: Timestamp(microseconds: t), type: type, code: code, value: value))
    }
    add(EventType.abs, AbsCode.mtSlot, 0)
    add(EventType.abs, AbsCode.mtTrackingID, id)
    for frame in 0...50 {
        let (x, y) = frame <= 15 ? (1000 + frame * 13, 900 + frame * 16) : (1195 + (frame - 15) * 13, 1140 - (frame - 15) * 18)
        add(EventType.abs, AbsCode.mtPositionX, Int32(x))
        add(EventType.abs, AbsCode.mtPositionY, Int32(y))
        add(EventType.syn, SynCode.report, 0)
        t += 8000
    }
    let stroke = events
    events.removeAll()
    add(EventType.abs, AbsCode.mtTrackingID, -1)
    add(EventType.syn, SynCode.report, 0)
    return (stroke, events)
}

/// Two fingers 40 mm apart turning 15° a frame about the panel's middle, without end.
func turning(frames: Int) -> [InputEvent] {
    var events: [InputEvent] = []
    var t: Int64 = 0
    func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: Timestamp(microseconds: t), type: type, code: code, value: value))
    }
    for frame in 0..<frames {
        let angle = Double(frame * 15) * Double.pi / 180
        for finger in 0..<2 {
            let sign = finger == 0 ? -1.0 : 1.0
            add(EventType.abs, AbsCode.mtSlot, Int32(finger))
            if frame == 0 { add(EventType.abs, AbsCode.mtTrackingID, Int32(finger + 1)) }
            add(EventType.abs, AbsCode.mtPositionX, Int32(1920 + sign * 260 * cos(angle)))
            add(EventType.abs, AbsCode.mtPositionY, Int32(1080 + sign * 260 * sin(angle)))
        }
        add(EventType.syn, SynCode.report, 0)
        t += 8000
    }
    return events
}

let panel = DeviceDescription(name: "bench", axes: [
    AbsoluteAxis(code: AbsCode.mtSlot, minimum: 0, maximum: 9),
    AbsoluteAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 3839, resolution: 13),
    AbsoluteAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 2159, resolution: 13),
    AbsoluteAxis(code: AbsCode.mtTrackingID, minimum: 0, maximum: 65535),
])

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
                                           maxDuration: .seconds(3))

    // One frame (3 fingers) through the pipeline step with the built-in configuration:
    // decoder, recognizers, arbiter and bindings, what happens between a SYN_REPORT and
    // an action; isolated, also what the twin gets (passed live: no gesture delays it).
    var isolated = Configuration.makeDefault()
    isolated.daemon.isolate = true
    for (name, config) in [("frame to actions (3 fingers, built-in config)", Configuration.makeDefault()),
                           ("frame to actions and twin (3 fingers, built-in config, isolated)", isolated)] {
        Benchmark(name, configuration: .init(scalingFactor: .kilo)) { benchmark in
            let events = threeFingerDrag(frames: 1200)
            let pipeline = try! TouchscreenPipeline(panel, config: config)
            // Warm up to the steady state: fingers down, recognizers deciding. The first
            // frame has 13 events (tracking ids), the others 10 (3 × slot, x, y; SYN_REPORT).
            let warmUp = 13 + 49 * 10
            for e in events.prefix(warmUp) { pipeline.step(.event(e)) { _ in } }
            let steady = Array(events.dropFirst(warmUp))
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations {
                let base = (i % 1000) * 10
                for e in steady[base..<(base + 10)] {
                    pipeline.step(.event(e)) { blackHole($0.actions.count + $0.twin.count) }
                }
            }
        }
    }

    // The same frame through the whole seat, with a second panel and a pen beside it:
    // what the seat adds to the panel's step (the node's lookup, the deadlines of every
    // panel, the actions rendered as effects).
    Benchmark("seat: frame to effects (3 fingers, two panels and a pen, built-in config)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let events = threeFingerDrag(frames: 1200)
        let seat = Seat(config: Configuration.makeDefault())
        let pen = DeviceDescription(name: "bench pen", axes: [AbsoluteAxis(code: AbsCode.x, minimum: 0, maximum: 3839, resolution: 13),
                                                              AbsoluteAxis(code: AbsCode.y, minimum: 0, maximum: 2159, resolution: 13)],
                                    tool: .pen)
        for (node, device) in [("/dev/input/event5", panel), ("/dev/input/event6", panel), ("/dev/input/event7", pen)] {
            try! seat.step(.appeared(SeatDevice(node: node, description: device, live: .init(kernelState: nil, isTwin: false, group: "1")),
                                     at: Timestamp(microseconds: 0)))
        }
        precondition(seat.panels.count == 3, "two panels and a pen")
        let warmUp = 13 + 49 * 10
        for e in events.prefix(warmUp) { try! seat.step(.event(node: "/dev/input/event5", e)) }
        let steady = Array(events.dropFirst(warmUp))
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            let base = (i % 1000) * 10
            for e in steady[base..<(base + 10)] {
                try! seat.step(.event(node: "/dev/input/event5", e))
                for effect in seat.effects {
                    if case .step(_, _, let step) = effect { blackHole(step.actions.count) }
                }
            }
        }
    }

    // A rotation bound to keys in 15° steps, turning a step a frame: each frame crosses
    // a boundary and asks for a key chord (what `keys` costs the step).
    Benchmark("stepped rotation: frame to a key action (15° a frame, step = 15)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let config = try! Configuration.parse("""
            [[gesture]]
            name = "volume"
            type = "rotate"
            step = 15
            increase = { keys = "VolumeUp" }
            decrease = { keys = "VolumeDown" }
            """, file: "bench.toml", keyCodes: KeyCodes(byName: ["KEY_VOLUMEUP": 115, "KEY_VOLUMEDOWN": 114]))
        let events = turning(frames: 1200)
        let pipeline = try! TouchscreenPipeline(panel, config: config)
        let warmUp = 9 + 49 * 7  // the first frame has 9 events (tracking ids), the others 7
        var keys = 0
        for e in events.prefix(warmUp) { pipeline.step(.event(e)) { keys += $0.actions.count } }
        precondition(keys >= 40, "the rotation should ask for a key chord a frame, asked for \(keys) in 50 frames")
        let steady = Array(events.dropFirst(warmUp))
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            let base = (i % 1000) * 7
            for e in steady[base..<(base + 7)] {
                pipeline.step(.event(e)) { blackHole($0.actions.count) }
            }
        }
    }

    // The lift of a checkmark with the built-in configuration: where the stroke
    // recognizers judge (the gate, then 1,640 templates), up to the recognition and its
    // actions. Each iteration lifts a pipeline fed a whole checkmark (so that what grows
    // once has grown) and then a second one up to its lift.
    Benchmark("stroke lift: judged and recognized (checkmark, built-in config)",
              configuration: .init(scalingFactor: .kilo, maxDuration: .seconds(20), maxIterations: 30)) { benchmark in
        let first = checkmark(id: 1, at: 0)
        let (stroke, lift) = checkmark(id: 2, at: 2_000_000)
        let pipelines = benchmark.scaledIterations.map { _ in
            let pipeline = try! TouchscreenPipeline(panel, config: Configuration.makeDefault())
            for e in first.stroke + first.lift + stroke { pipeline.step(.event(e)) { _ in } }
            return pipeline
        }
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            for e in lift {
                pipelines[i].step(.event(e)) { blackHole($0.actions.count) }
            }
        }
    }

    throughputBenchmarks()

    Benchmark("evemu parse (a 200-line stroke)") { benchmark in
        var text = "N: bench\nA: 35 0 3839 0 0 13\nA: 36 0 2159 0 0 13\nA: 2f 0 9 0 0 0\n"
        for i in 0..<50 {
            let t = fraction(i)
            text += "E: 0.\(t) 0003 0035 \(1000 + i)\nE: 0.\(t) 0003 0036 \(900 + i)\nE: 0.\(t) 0000 0000 0000\n"
        }
        let bytes = Array(text.utf8)
        for _ in benchmark.scaledIterations { blackHole(try? Evemu.parse(bytes)) }
    }
}

/// Six digits, zero-padded: the fraction of an evemu time stamp, n hundredths of a second.
func fraction(_ n: Int) -> String {
    let digits = String(n * 10_000)
    return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
}
