import Bindings
import Config
import ConfigParsing
import Gestures
import Pipeline
import Testing
import TouchCore

@Suite struct ReloadTests {
    let panel = DeviceDescription(name: "Panel", axes: [
        AbsoluteAxis(code: AbsCode.mtSlot, minimum: 0, maximum: 9),
        AbsoluteAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 1000, resolution: 10),
        AbsoluteAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 1000, resolution: 10),
    ])

    func config(_ toml: String) throws -> Configuration { try Configuration.parse(toml, file: "t.toml") }

    /// A tap at `t` seconds: down, then up 50 ms later.
    func tap(at t: Double, _ pipeline: TouchscreenPipeline) -> [String] {
        let time = Timestamp(seconds: t), up = Timestamp(seconds: t + 0.05)
        let events = [
            InputEvent(time: time, type: EventType.abs, code: AbsCode.mtTrackingID, value: 1),
            InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0),
            InputEvent(time: up, type: EventType.abs, code: AbsCode.mtTrackingID, value: -1),
            InputEvent(time: up, type: EventType.syn, code: SynCode.report, value: 0),
        ]
        var actions: [Action] = []
        for event in events { pipeline.step(.event(event)) { actions += $0.actions.map(\.action) } }
        return actions.map { action in
            if case .run(let command) = action { command.command.text } else { "signal" }
        }
    }

    @Test func anIdleScreenTakesTheNewConfigurationAtOnce() throws {
        let pipeline = try TouchscreenPipeline(panel, config: config("[[gesture]]\nname = \"a\"\ntype = \"tap\"\ncommand = \"old\"\n"))
        #expect(tap(at: 0, pipeline) == ["old"])
        try pipeline.reload(config("[[gesture]]\nname = \"b\"\ntype = \"tap\"\ncommand = \"new\"\n"))
        #expect(!pipeline.reloadPending)
        #expect(tap(at: 1, pipeline) == ["new"])
    }

    @Test func aConfigurationThatIgnoresTheDeviceChangesNothing() throws {
        let pipeline = try TouchscreenPipeline(panel, config: config("[[gesture]]\nname = \"a\"\ntype = \"tap\"\ncommand = \"old\"\n"))
        #expect(throws: TouchscreenPipeline.Refusal.ignored) {
            try pipeline.reload(config("[[device]]\nname = \"Panel\"\nignore = true\n"))
        }
        #expect(tap(at: 0, pipeline) == ["old"])
    }
}
