import Benchmark
import Config
import ConfigParsing
import FoundationEssentials
import Pipeline
import TouchCore

/// Kernel events played round and round through pipelines of the built-in configuration,
/// one event a call: the streams one after the other, each round's times moved on so
/// that they keep increasing. Through a seat, each stream is a panel of one seat, and
/// each event goes through the seat's step as the daemon gives it.
final class Player {
    private var streams: [(node: String, pipeline: TouchscreenPipeline, events: [InputEvent], span: Int64)]
    private let seat: Seat?
    private var stream = 0, index = 0, offset: Int64 = 0

    init(_ recordings: [(DeviceDescription, [InputEvent])], throughSeat: Bool = false) {
        let seat = throughSeat ? Seat(config: Configuration.makeDefault()) : nil
        streams = recordings.filter { !$0.1.isEmpty }.enumerated().map { number, recording in
            let (device, events) = recording
            let span = events.last!.time.microseconds - events.first!.time.microseconds + 1_000_000
            let node = "/dev/input/event\(number)"
            try! seat?.step(.appeared(SeatDevice(node: node, description: device), at: Timestamp(microseconds: 0)))
            return (node, seat?.panel(node)?.pipeline ?? (try! TouchscreenPipeline(device, config: Configuration.makeDefault())), events, span)
        }
        self.seat = seat
    }

    var eventCount: Int { streams.reduce(0) { $0 + $1.events.count } }

    /// The next event through its pipeline; the number of actions its steps asked for.
    func step() -> Int {
        var event = streams[stream].events[index]
        event.time.microseconds += offset
        var actions = 0
        if let seat {
            try! seat.step(.event(node: streams[stream].node, event))
            for effect in seat.effects {
                if case .step(_, _, let step) = effect { actions += step.actions.count }
            }
        } else {
            streams[stream].pipeline.step(.event(event)) { actions += $0.actions.count }
        }
        index += 1
        if index == streams[stream].events.count {
            offset += streams[stream].span
            index = 0
            stream = (stream + 1) % streams.count
        }
        return actions
    }
}

/// Ten fingers moving at once for 200 frames, lifted, and down again.
func tenFingerStorm() -> [InputEvent] {
    var events: [InputEvent] = []
    var t: Int64 = 0
    func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: Timestamp(microseconds: t), type: type, code: code, value: value))
    }
    for frame in 0..<200 {
        for finger in 0..<10 {
            add(EventType.abs, AbsCode.mtSlot, Int32(finger))
            if frame == 0 { add(EventType.abs, AbsCode.mtTrackingID, Int32(finger + 1)) }
            add(EventType.abs, AbsCode.mtPositionX, Int32(300 + finger * 320 + (frame * 7) % 200))
            add(EventType.abs, AbsCode.mtPositionY, Int32(300 + (frame * (finger + 3)) % 1500))
        }
        add(EventType.syn, SynCode.report, 0)
        t += 8000
    }
    for finger in 0..<10 {
        add(EventType.abs, AbsCode.mtSlot, Int32(finger))
        add(EventType.abs, AbsCode.mtTrackingID, -1)
    }
    add(EventType.syn, SynCode.report, 0)
    return events
}

/// The real touchscreen recordings beside the project (`GESTURED_DATA`, by default
/// ../../shared/data from Benchmarks/): each `.events` file with its `.desc`.
func sharedRecordings() -> [(DeviceDescription, [InputEvent])] {
    let folder = (ProcessInfo.processInfo.environment["GESTURED_DATA"] ?? "../../shared/data") + "/evemu"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
    return names.filter { $0.hasSuffix(".events") }.sorted().compactMap { name in
        let device = name.split(separator: ".").first.map { folder + "/" + $0 + ".desc" } ?? ""
        guard let desc = FileManager.default.contents(atPath: device),
              let events = FileManager.default.contents(atPath: folder + "/" + name),
              let recording = try? Evemu.parse(Array(desc) + Array(events)),
              let description = recording.description else { return nil }
        return (description, recording.events)
    }
}

/// Events a second through the whole pipeline (decoder, every recognizer of the built-in
/// configuration, arbiter, bindings), one event an iteration, on one core.
func throughputBenchmarks() {
    let checkmarkEvents = { let c = checkmark(); return c.stroke + c.lift }()
    let streams: [(String, Bool, () -> [(DeviceDescription, [InputEvent])])] = [
        ("1-finger checkmark strokes", false, { [(panel, checkmarkEvents)] }),
        ("10-finger storm", false, { [(panel, tenFingerStorm())] }),
        ("10-finger storm through the seat", true, { [(panel, tenFingerStorm())] }),
        ("shared recordings (../shared/data/evemu)", false, sharedRecordings),
    ]
    for (name, throughSeat, make) in streams {
        Benchmark("throughput: \(name), events", configuration: .init(
            metrics: [.throughput, .wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(3))) { benchmark in
            let recordings = make()
            guard !recordings.isEmpty else { return }
            let player = Player(recordings, throughSeat: throughSeat)
            for _ in 0..<player.eventCount { blackHole(player.step()) }  // one round: buffers grown
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(player.step()) }
        }
    }
}
