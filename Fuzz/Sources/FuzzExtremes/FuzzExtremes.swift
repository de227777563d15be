import Bindings
import Config
import ConfigParsing
import FuzzStreams
import FuzzSupport
import Pipeline
import Reports
import TouchCore

/// The pipeline at the ends of what is accepted: every gesture type with its measured
/// settings at their smallest or largest valid values, panels from 1 mm to 10 m
/// (`size_mm`), axes up to the 32-bit ends with resolutions from 0 to 2³¹, frames 0 or
/// 1 µs apart; and every step formatted as `replay --explain --actions --touches` and
/// `--svg` format it, with the gestures' environment and signals. Nothing may trap (a
/// Double beyond an integer's range, NaN made an integer), and the invariants of
/// FuzzPipeline hold, and the output per event is bounded.
@_cdecl("FuzzExtremes_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in
        let input = bytes(data, size)
        guard input.count >= 4 else { return 0 }
        let x = axisRanges[Int(input[0]) % axisRanges.count], y = axisRanges[Int(input[0] / 16) % axisRanges.count]
        let resolution = resolutions[Int(input[1]) % resolutions.count]
        let device = DeviceDescription(name: "extreme", axes: [
            AbsoluteAxis(code: AbsCode.mtPositionX, minimum: x.lowerBound, maximum: x.upperBound, resolution: resolution),
            AbsoluteAxis(code: AbsCode.mtPositionY, minimum: y.lowerBound, maximum: y.upperBound, resolution: resolution),
            AbsoluteAxis(code: AbsCode.mtTrackingID, minimum: 0, maximum: 65535),
            AbsoluteAxis(code: AbsCode.mtSlot, minimum: 0, maximum: 9),
        ])
        let config = configurations[Int(input[2]) % configurations.count]
        let pipeline = try! TouchscreenPipeline(device, config: config)
        pipeline.explaining = true
        let steps = frameSteps[Int(input[3]) % frameSteps.count]
        let shape = StreamShape(microseconds: { steps[Int($0) % steps.count] },
                                positions: Int64(min(x.lowerBound, y.lowerBound))...Int64(max(x.upperBound, y.upperBound)))
        var printer = ReplayPrinter(file: "extreme", format: input[1] & 0x80 == 0 ? .text : .jsonl) { _ in }
        printer.showTouches = true
        printer.showActions = true
        var picture = TouchPicture(title: "extreme", size: pipeline.geometry.size)
        var time: Int64 = 0
        var held = HeldInput()
        var touchpad = TouchpadFingers()
        play(input.dropFirst(4), on: pipeline, from: &time, shape: shape, gestures: config.gestures) { step in
            printer.print(step)
            picture.add(step)
            for event in step.events {
                _ = GestureEnvironment.assignments(event, device: "extreme")
                _ = GestureFields.numbers(event).map { fixed($0.1, decimals: 4) }
            }
            // What the virtual keyboard, pointer and touchpad would be sent.
            var written: [InputEvent] = []
            for action in step.actions.map(\.action) {
                var pointer: [InputEvent] = []
                switch action {
                case .keys(_, let keys): VirtualInput.append(keys, holding: held.keys, to: &written)
                case .click(_, let click, let location): VirtualInput.append(click, at: location, to: &written)
                case .scroll(let turn): VirtualInput.append(turn, to: &written)
                case .fling(let fling):
                    // A glide's first ticks, whatever speed the extremes gave it.
                    if var glide = KineticScroll(fling, at: step.input.time) {
                        for tick in 1...5 { VirtualInput.append(glide.advance(to: step.input.time + Double(tick) * KineticScroll.tickMS), to: &written) }
                    }
                case .hold(let hold):
                    let holder = GestureHolder(panel: "extreme", binding: hold.binding)
                    switch hold.moment {
                    case .press: held.press(hold.hold, by: holder, at: hold.location, keyboard: &written, pointer: &pointer)
                    case .follow: held.follow(holder, to: hold.location, pointer: &pointer)
                    case .release: held.release(holder, keyboard: &written, pointer: &pointer)
                    }
                case .touchpad(let action):
                    let holder = GestureHolder(panel: "extreme", binding: action.binding)
                    switch action.moment {
                    case .begin: _ = touchpad.begin(action.touches, by: holder, at: step.input.time, into: &written)
                    case .move: touchpad.move(action.touches, by: holder, at: step.input.time, into: &written)
                    case .end: touchpad.end(by: holder, into: &written)
                    }
                case .run, .signal, .mode, .pause, .touchLock: break
                }
                written += pointer
            }
            if let last = written.last, last.type != EventType.syn || last.code != SynCode.report {
                violated("virtual input that does not end in SYN_REPORT: \(written)")
            }
            // Bounded output per event: each gesture event acts once, and once more for each
            // step it crosses (at most `StepCounter.mostAtOnce`), each action a few at most.
            let mostActions = step.events.count * (7 + 6 * StepCounter.mostAtOnce)
            if step.actions.count > mostActions { violated("\(step.actions.count) actions from \(step.events.count) gesture events") }
            if written.count > step.actions.count * 64 { violated("\(written.count) virtual input events from \(step.actions.count) actions") }
        }
        _ = picture.svg()
        return 0
    }
}

let axisRanges: [ClosedRange<Int32>] = [
    .min ... .max, 0 ... .max, .min...0, 0...1, 0...4095, -1...1, (.max - 1) ... .max, .min ... (.min + 1),
]
let resolutions: [Int32] = [0, 1, 13, 1000, .max]
/// The frame intervals, in microseconds, a record's step byte chooses among.
let frameSteps: [[Int64]] = [[0, 1], [0], [1], [0, 1, 10_000], [0, 1, 1_000_000, 3_600_000_000]]

/// Every gesture type, its measures all at their smallest, all at their largest, or
/// alternating; the panel's size from the device, 1 mm, 10 m or 1 mm × 10 m. Parsed as
/// `check` parses them: each is a configuration gestured accepts.
let configurations: [Configuration] = {
    let sizes = ["", "size_mm = [1, 1]", "size_mm = [10000, 10000]", "size_mm = [1, 10000]"]
    var all: [Configuration] = []
    for size in sizes {
        for choice in 0..<3 {
            let text = extremeConfiguration(size: size, choice: choice)
            do { all.append(try Configuration.parse(text, file: "extremes.toml")) } catch {
                fatalError("not accepted:\n\(text)\n\(error)")
            }
        }
    }
    return all
}()

/// `choice` 0: every measure at its smallest valid value; 1: its largest; 2: alternating.
func extremeConfiguration(size: String, choice: Int) -> String {
    var n = 0
    func pick(_ smallest: String, _ largest: String) -> String {
        n += 1
        return choice == 0 || (choice == 2 && n % 2 == 0) ? smallest : largest
    }
    // The smallest positive Double: "more than 0" accepts it.
    let tiny = "5e-324"
    var text = """
        [daemon]
        max_delay_ms = \(pick("0", "60000"))
        isolate = \(choice == 2)
        palm_after_pen_ms = \(pick("0", "60000"))
        mode_timeout_s = \(pick("0.1", "86400"))
        rotation = \(pick("270", "\"auto\""))
        [[device]]
        name = "*"
        \(size)

        """
    func gesture(_ name: String, _ type: String, _ settings: [String]) {
        text += "[[gesture]]\nname = \"\(name)\"\ntype = \"\(type)\"\ncommand = \"x\"\nsignal = true\n"
        text += settings.joined(separator: "\n") + "\n"
        if ["pan", "pinch", "rotate"].contains(type) { text += "on = [\"began\", \"changed\", \"ended\", \"cancelled\"]\n" }
    }
    gesture("tap", "tap", ["fingers = \(pick("1", "10"))", "taps = \(pick("1", "5"))", "max_movement_mm = \(pick(tiny, "10000"))",
                           "max_duration_ms = \(pick(tiny, "3600000"))", "max_interval_ms = \(pick(tiny, "3600000"))",
                           "pause_s = \(pick("0.1", "86400"))", "modes = [\"*\"]", "when_locked = true"])
    gesture("press", "long-press", ["fingers = \(pick("1", "10"))", "max_movement_mm = \(pick(tiny, "10000"))",
                                    "min_duration_ms = \(pick(tiny, "3600000"))", "mode = \"m\"",
                                    "mode_timeout_s = \(pick("0.1", "86400"))", "tool = \"any\""])
    gesture("swipe", "swipe", ["fingers = \(pick("1", "10"))", "min_distance_mm = \(pick(tiny, "10000"))",
                               "min_speed_mm_s = \(pick(tiny, "100000"))"])
    // Steps at their finest and coarsest: the finest crosses the most boundaries a frame.
    let stepped = ["increase = { signal = true, click = \"left\", double = true }", "decrease = { signal = true }"]
    gesture("pan", "pan", ["fingers = \(pick("1", "10"))", "min_distance_mm = \(pick("0", "10000"))", "scroll = true",
                           "scroll_mm = \(pick("0.1", "1000"))", "step = \(pick("1", "10000"))"] + stepped)
    gesture("pinch", "pinch", ["fingers = \(pick("2", "10"))", "min_scale_change = \(pick("0", "100"))",
                               "step = \(pick("1.01", "100"))"] + stepped)
    gesture("rotate", "rotate", ["fingers = \(pick("2", "10"))", "min_rotation = \(pick("0", "100"))",
                                 "step = \(pick("1", "3600"))"] + stepped)
    gesture("edge", "edge-swipe", ["edge = \"left\"", "edge_range = [\(pick("0.5, 0.5000001", "0, 1"))]",
                                   "edge_zone_mm = \(pick(tiny, "10000"))", "min_distance_mm = \(pick(tiny, "10000"))"])
    gesture("check", "checkmark", ["min_size_mm = \(pick(tiny, "10000"))"])
    gesture("back", "chevron", ["direction = \"left\"", "min_size_mm = \(pick(tiny, "10000"))"])
    gesture("zed", "stroke", ["min_size_mm = \(pick(tiny, "10000"))", "min_similarity = \(pick("0", "1"))", """
        templates = ["81819d81b981d581f1810d812981458161817d816d9359a745bb31cf1ee20af6f60ae21ecf31bb45a759936d837f9f7fbb7fd77ff37f0f7f2b7f477f637f7f7f"]
        """])
    return text
}
