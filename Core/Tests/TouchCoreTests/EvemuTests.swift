import Testing
import TouchCore

@Suite struct EvemuReaderTests {
    func parse(_ text: String) throws -> EvemuRecording { try Evemu.parse(Array(text.utf8)) }

    func error(_ text: String) -> EvemuError? {
        do { _ = try parse(text); return nil } catch { return error as? EvemuError }
    }

    @Test func newFormatWithPaddedValuesAndComments() throws {
        let r = try parse("""
            # EVEMU 1.3
            N: Atmel maXTouch Touchscreen
            I: 0018 0eef 7224 0001
            P: 02 00 00 00 00 00 00 00
            B: 00 0b 00 00 00 00 00 00 00
            A: 00 0 799 0 0 0
            A: 35 0 799 0 0 10
            A: 36 0 479 0 0 10
            A: 39 0 65535 0 0 0
            ################################
            E: 0.000001 0003 0039 0003\t# EV_ABS / ABS_MT_TRACKING_ID   3
            E: 0.000001 0003 0035 0340\t# EV_ABS / ABS_MT_POSITION_X    340
            E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms
            E: 0.095573 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID   -1
            E: 0.095573 0000 0000 0000

            """)
        let d = try #require(r.description)
        #expect(d.name == "Atmel maXTouch Touchscreen")
        #expect(d.vendor == 0x0eef && d.product == 0x7224)
        #expect(d.axis(AbsCode.mtPositionX) == AbsoluteAxis(code: 0x35, minimum: 0, maximum: 799, resolution: 10))
        #expect(r.events.count == 5)
        #expect(r.events[0] == InputEvent(time: Timestamp(microseconds: 0), type: 3, code: 0x39, value: 3))
        #expect(r.events[3].value == -1)
        #expect(r.events[3].time.microseconds == 95_572)
        #expect(r.lastEventLine == 15)
    }

    @Test func oldFormatWithAbsoluteTimesAndFiveFieldAxes() throws {
        let r = try parse("""
            N: ELAN CANDO Windows7
            A: 35 0 3008 0 0
            A: 36 0 1856 0 0
            E: 1352020794.138597 0003 0039 0
            E: 1352020794.138597 0003 0035 1454
            E: 1352020794.138597 0000 0000 0
            E: 1352020795.5 0000 0000 0
            """)
        #expect(r.description?.axis(AbsCode.mtPositionY)?.maximum == 1856)
        #expect(r.description?.axis(AbsCode.mtPositionY)?.resolution == 0)
        #expect(r.events.map(\.time.microseconds) == [0, 0, 0, 1_361_403])
        #expect(r.events[1].value == 1454)
    }

    @Test func eventsOnlyFileHasNoDescription() throws {
        let r = try parse("E: 0.000000 0001 014a 1\nE: 0.000000 0000 0000 0\n")
        #expect(r.description == nil)
        #expect(r.events.count == 2)
    }

    @Test func truncatedLineIsLocated() {
        let e = error("N: x\nA: 00 0 10 0 0 0\nE: 0.000000 0003 0000 5\nE: 0.000000 0000 0000 0\nE: 0.01 00")
        #expect(e?.line == 5)
        #expect(e?.message.contains("E: SECONDS.MICROSECONDS TYPE CODE VALUE") == true)
    }

    @Test func recordingCutInsideAFrameIsLocated() {
        let e = error("E: 0.000000 0003 0000 5\nE: 0.000000 0000 0000 0\nE: 0.010000 0003 0000 6\n")
        #expect(e?.line == 3)
        #expect(e?.message.contains("truncated") == true)
    }

    @Test(arguments: [
        ("N: x\nA: 00 zero 10 0 0 0\n", 2),
        ("N: x\nA: 00 0 10 0\n", 2),
        ("N: x\nA: 00 0 10 0 0 0 0\n", 2),
        ("N: x\nI: 0018 zz 0000 0000\n", 2),
        ("N: x\nB: 00 0g\n", 2),
        ("E: 0.0 0003 0000 5\nE: 0.0 0000 0000 0\nA: 00 0 10 0 0 0\n", 3),
        ("E: abc 0003 0000 5\n", 1),
        ("E: 0.0 0003 0000 99999999999\n", 1),
        ("E: 0.0 0003 0000 1.5\n", 1),
        ("# fine\n\u{1}\u{2}garbage\u{ff}\n", 2),
        ("N: x\nthis is not evemu\n", 2),
        // Numbers too long for 64 bits are errors on their line, not a crash.
        ("E: 0.0 FFFFFFFFFFFFFFFF 0000 0\n", 1),
        ("N: x\nB: 00 FFFFFFFFFFFFFFFFFF\n", 2),
        ("N: x\nI: 0018 0000 0000 7FFFFFFFFFFFFFFFF\n", 2),
        ("N: x\nA: 35 -999999999999999999 10 0 0 0\n", 2),
        ("E: 99999999999999999999.0 0003 0000 5\n", 1),
    ])
    func garbledLinesAreLocated(text: String, line: Int) {
        #expect(error(text)?.line == line)
    }

    @Test func binaryGarbageNeverCrashes() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0..<400, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? Evemu.parse(bytes)
        }
    }
}

/// Deterministic random numbers: a failing garbage test must fail the same way again.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
