import Config
import ConfigParsing
import Reports
import Testing
import TouchCore

@Suite struct DeviceReportTests {
    let panel = DeviceDescription(name: "ELAN Touchscreen", bus: 0x18, vendor: 0x04f3, product: 0x2494, axes: [
        AbsoluteAxis(code: AbsCode.mtSlot, minimum: 0, maximum: 9),
        AbsoluteAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 3199, resolution: 12),
        AbsoluteAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 1799, resolution: 12),
    ])

    func facts(kinds: [String] = ["touchscreen"], description: DeviceDescription? = nil, error: String? = nil) -> InputDeviceFacts {
        InputDeviceFacts(node: "/dev/input/event5", name: "ELAN Touchscreen", udevKinds: kinds,
                         absCodes: [0, 1, 0x2f, 0x35, 0x36, 0x39], description: description, openError: error)
    }

    func config(_ text: String) throws -> Configuration { try Configuration.parse(text, file: "t.toml") }

    @Test func readableTouchscreenShowsItsFiguresAndRule() throws {
        let c = try config("""
            [[device]]
            name = "ELAN*"
            rotation = 90
            isolate = true
            """)
        let lines = DeviceReport.lines(facts(description: panel), config: c)
        #expect(lines == [
            "/dev/input/event5  'ELAN Touchscreen'",
            "  id 04f3:2494, bus 0x0018 (I2C)",
            "  protocol: multitouch B, 10 slots",
            "  axes: x 0…3199 (12 units/mm), y 0…1799 (12 units/mm)",
            "  size: 149.9 × 266.6 mm (from the resolution)",
            "  mounting: rotation 90°",
            "  udev: touchscreen",
            "  rule: [[device]] number 1 (name = \"ELAN*\")",
            "  gestured: read, isolated (grabbed, with a uinput twin), 0 gestures",
        ])
    }

    @Test func withoutResolutionTheSizeIsAssumedAndSaysHowToSetIt() {
        var bare = panel
        bare.axes = bare.axes.map { var a = $0; a.resolution = 0; return a }
        let lines = DeviceReport.lines(facts(description: bare), config: Configuration.makeDefault())
        #expect(lines.contains { $0.hasPrefix("  size: ") && $0.contains("assumed") && $0.contains("size_mm") })
        #expect(lines.last?.hasPrefix("  gestured: read, not isolated, ") == true)
    }

    @Test func whyNot() throws {
        let touchpad = DeviceReport.lines(facts(kinds: ["touchpad"], description: panel), config: Configuration())
        #expect(touchpad.last?.contains("not read: udev does not call it a touchscreen") == true)
        #expect(touchpad.last?.contains("a touchpad") == true)
        let locked = DeviceReport.lines(facts(error: "permission denied"), config: Configuration())
        #expect(locked.count == 3)
        #expect(locked.last?.contains("cannot open it (permission denied)") == true)
        #expect(locked.last?.contains("'input' group") == true)
        let ignored = DeviceReport.lines(facts(description: panel), config: try config("""
            [[device]]
            id = "04f3:2494"
            ignore = true
            """))
        #expect(ignored.contains("  rule: [[device]] number 1 (id = \"04f3:2494\")"))
        #expect(ignored.last == "  gestured: ignored by its [[device]] rule (ignore = true)")
        var isolated = facts(description: panel)
        isolated.twinNode = "/dev/input/event9"
        #expect(DeviceReport.lines(isolated, config: Configuration()).last?.contains("isolated by a running gestured: applications get its twin /dev/input/event9") == true)
    }

    @Test func listsWhatCouldBeATouchscreenAndNoTwin() {
        let keyboard = InputDeviceFacts(node: "/dev/input/event0", name: "AT keyboard", udevKinds: ["key", "keyboard"])
        let twin = InputDeviceFacts(node: "/dev/input/event9", name: "ELAN Touchscreen", phys: "gestured-twin//dev/input/event5",
                                    udevKinds: ["touchscreen"], absCodes: [0, 1])
        let touchpad = InputDeviceFacts(node: "/dev/input/event3", name: "Synaptics", udevKinds: ["touchpad"], absCodes: [0, 1])
        #expect(DeviceReport.listed([keyboard, twin, touchpad, facts()]).map(\.node) == ["/dev/input/event3", "/dev/input/event5"])
    }

    @Test func sysfsBitmaskWordsCountFromTheLast() {
        #expect(sysfsBitmaskCodes("260800000000003\n") == [0, 1, 0x2f, 0x35, 0x36, 0x39])
        #expect(sysfsBitmaskCodes("1 0") == [64])
        #expect(sysfsBitmaskCodes("0") == [])
        #expect(sysfsBitmaskCodes("zz") == [])
    }
}
