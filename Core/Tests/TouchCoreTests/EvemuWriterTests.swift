import Testing
import TouchCore

@Suite struct EvemuWriterTests {
    let panel = EvemuDevice(
        name: "Writer panel", bus: 0x18, vendor: 0x04f3, product: 0x2494, version: 0x100,
        properties: [1],
        masks: [EvemuDevice.CodeMask(type: 0, codes: [0, 1, 3]),
                EvemuDevice.CodeMask(type: 1, codes: [0x14a]),
                EvemuDevice.CodeMask(type: 3, codes: [0, 1, 0x2f, 0x35, 0x36, 0x39])],
        axes: [EvemuDevice.Axis(code: 0x35, minimum: 0, maximum: 3199, fuzz: 4, resolution: 12),
               EvemuDevice.Axis(code: 0x36, minimum: -5, maximum: 1799, resolution: 12),
               EvemuDevice.Axis(code: 0x2f, minimum: 0, maximum: 9)])

    @Test func headerLaysOutMasksAsEvemuRecordDoes() {
        let lines = Evemu.header(panel, comment: ["from a test"]).split(separator: "\n").map(String.init)
        #expect(lines.prefix(4) == ["# EVEMU 1.3", "# from a test", "N: Writer panel", "I: 0018 04f3 2494 0100"])
        #expect(lines.contains("P: 02 00 00 00 00 00 00 00"))
        #expect(lines.contains("B: 00 0b 00 00 00 00 00 00 00"))
        // BTN_TOUCH (0x14a) is bit 2 of byte 41: the sixth line of EV_KEY's mask.
        #expect(lines.filter { $0.hasPrefix("B: 01 ") }.count == 6)
        #expect(lines.contains("B: 01 00 04 00 00 00 00 00 00"))
        #expect(lines.contains("B: 03 03 00 00 00 00 80 60 02"))
        #expect(lines.contains("A: 35 0 3199 4 0 12"))
        #expect(lines.contains("A: 36 -5 1799 0 0 12"))
    }

    @Test func recordingReadsBackAsWritten() throws {
        let start = Timestamp(microseconds: 5_000_000_123)
        let events = [
            InputEvent(time: start, type: 3, code: 0x39, value: 7),
            InputEvent(time: start, type: 3, code: 0x35, value: 100),
            InputEvent(time: start, type: 0, code: 0, value: 0),
            InputEvent(time: Timestamp(microseconds: start.microseconds + 1_016_004), type: 3, code: 0x39, value: -1),
            InputEvent(time: Timestamp(microseconds: start.microseconds + 1_016_004), type: 0, code: 0, value: 0),
        ]
        let text = Evemu.header(panel) + events.map { Evemu.line(for: $0, since: start) }.joined()
        #expect(text.contains("E: 1.016004 0003 0039 -1\n"))
        let read = try Evemu.parse(Array(text.utf8))
        let description = try #require(read.description)
        #expect(description.name == "Writer panel")
        #expect(description.bus == 0x18 && description.vendor == 0x04f3 && description.product == 0x2494)
        #expect(description.axis(AbsCode.mtPositionY) == AbsoluteAxis(code: 0x36, minimum: -5, maximum: 1799, resolution: 12))
        #expect(description.touchProtocol == .slotted(slotCount: 10))
        #expect(read.events.map(\.value) == events.map(\.value))
        #expect(read.events.map(\.time.microseconds) == events.map { $0.time.microseconds - start.microseconds })
    }

    @Test func nameWithANewlineStaysOneLine() {
        var odd = panel
        odd.name = "two\nlines"
        #expect(Evemu.header(odd).contains("N: two lines\n"))
    }
}
