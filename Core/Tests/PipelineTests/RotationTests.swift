import Config
import ConfigParsing
import Gestures
import Pipeline
import Testing
import TouchCore

/// `rotation = "auto"` and `"external"`: the display's rotation, sensed or set, turns
/// what the panel measures from the next touch sequence on, never one under way.
@Suite struct RotationTests {
    let panel = DeviceDescription(name: "Panel", axes: [
        AbsoluteAxis(code: AbsCode.mtSlot, minimum: 0, maximum: 9),
        AbsoluteAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 1000, resolution: 10),
        AbsoluteAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 1000, resolution: 10),
    ])

    func config(rotation: String) throws -> Configuration {
        try Configuration.parse("""
            [daemon]
            rotation = \(rotation)
            [[gesture]]
            name = "up"
            type = "swipe"
            direction = "up"
            [[gesture]]
            name = "left"
            type = "swipe"
            direction = "left"
            """, file: "t.toml")
    }

    /// One finger from the panel's x = 80 mm to 20 mm at mid-height, 100 ms: toward the
    /// panel's own left edge. `midway` runs after its first frame.
    func swipeTowardThePanelsLeft(_ pipeline: TouchscreenPipeline, at t: Double, id: Int32, midway: () -> Void = {}) -> [String] {
        var w = EventWriter(at: t)
        w.abs(AbsCode.mtSlot, 0)
        w.abs(AbsCode.mtTrackingID, id)
        w.abs(AbsCode.mtPositionY, 500)
        for x in stride(from: 800, through: 200, by: -60) {
            w.abs(AbsCode.mtPositionX, Int32(x))
            w.syn()
        }
        w.abs(AbsCode.mtTrackingID, -1)
        w.syn()
        let events = w.events
        var fired: [String] = []
        var frames = 0
        for event in events {
            pipeline.step(.event(event)) { step in fired += step.events.map(\.name) }
            if event.type == EventType.syn {
                frames += 1
                if frames == 1 { midway() }
            }
        }
        return fired
    }

    @Test func autoFollowsTheDisplayFromTheNextSequence() throws {
        let pipeline = try TouchscreenPipeline(panel, config: config(rotation: "\"auto\""))
        #expect(swipeTowardThePanelsLeft(pipeline, at: 0, id: 1) == ["left"])
        // Turned clockwise (iio-sensor-proxy's left-up): the panel's left edge is the top.
        pipeline.setDisplayRotation(.quarter)
        #expect(swipeTowardThePanelsLeft(pipeline, at: 1, id: 2) == ["up"])
        // Turned back during a swipe: that swipe keeps the rotation it began with.
        #expect(swipeTowardThePanelsLeft(pipeline, at: 2, id: 3) { pipeline.setDisplayRotation(.upright) } == ["up"])
        #expect(swipeTowardThePanelsLeft(pipeline, at: 3, id: 4) == ["left"])
    }

    @Test func aFixedRotationIgnoresTheDisplay() throws {
        let pipeline = try TouchscreenPipeline(panel, config: config(rotation: "0"))
        pipeline.setDisplayRotation(.quarter)
        #expect(!pipeline.reloadPending)
        #expect(swipeTowardThePanelsLeft(pipeline, at: 0, id: 1) == ["left"])
        let external = try TouchscreenPipeline(panel, config: config(rotation: "\"external\""), displayRotation: .threeQuarters)
        // 270: the panel's left edge is the bottom.
        #expect(swipeTowardThePanelsLeft(external, at: 0, id: 1).isEmpty)
        #expect(external.geometry.orientation.rotation == .threeQuarters)
    }

    @Test func aKnownSizeTurnsWithTheDisplay() {
        let geometry = DeviceGeometry(xAxis: AbsoluteAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 3000, resolution: 10),
                                      yAxis: AbsoluteAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 2000, resolution: 10))
        #expect(geometry.size == SizeMM(width: 300, height: 200))
        #expect(geometry.turned(to: .quarter).size == SizeMM(width: 200, height: 300))
        #expect(geometry.turned(to: .quarter).turned(to: .half).size == SizeMM(width: 300, height: 200))
    }

    @Test func rotationAndPalmSettingsAreCheckedAtTheirEnds() throws {
        func refusal(_ text: String) -> String? {
            do { _ = try Configuration.parse(text, file: "t.toml"); return nil } catch { return error.errors.first?.description }
        }
        for good in ["rotation = 0", "rotation = 270", "rotation = \"auto\"", "rotation = \"external\"",
                     "palm_after_pen_ms = 0", "palm_after_pen_ms = 60000"] {
            #expect(refusal("[daemon]\n\(good)\n") == nil, "\(good)")
        }
        for (bad, message) in [("rotation = 360", "found 360"), ("rotation = -90", "found -90"), ("rotation = 9223372036854775807", "found 9223372036854775807"),
                               ("rotation = \"Auto\"", "(did you mean \"auto\"?)"), ("rotation = 90.5", "expected an integer"),
                               ("palm_after_pen_ms = -1", "found -1"), ("palm_after_pen_ms = 60001", "at most 60000"),
                               ("palm_after_pen_ms = inf", "at most 60000")] {
            let error = refusal("[daemon]\n\(bad)\n")
            #expect(error?.hasPrefix("t.toml:2: error: daemon.") == true && error?.contains(message) == true, "\(bad): \(error ?? "accepted")")
        }
        #expect(refusal("[[device]]\nname = \"*\"\nrotation = \"sideways\"\n")?.contains("device[1].rotation") == true)
    }
}
