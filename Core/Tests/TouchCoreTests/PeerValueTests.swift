import Testing
import TouchCore

/// Text from a peer reaches a terminal or a log as one printable line.
@Suite struct PrintableTests {
    @Test func controlCharactersAreWrittenOutAndNothingElseChanges() {
        #expect(printable("default") == "default")
        #expect(printable("Zürich ⟳ 90°") == "Zürich ⟳ 90°")
        #expect(printable("\u{1b}[2J\u{1b}[31mred") == "\\u{1b}[2J\\u{1b}[31mred")
        #expect(printable("one\ninfo: forged\r") == "one\\u{a}info: forged\\u{d}")
        #expect(printable("\u{7f}\u{9b}31m\u{2028}") == "\\u{7f}\\u{9b}31m\\u{2028}")
    }

    @Test func longTextIsCut() {
        let long = String(repeating: "a", count: 10_000)
        #expect(printable(long, limit: 8) == "aaaaaaaa…")
        #expect(printable("12345678", limit: 8) == "12345678")
    }
}

/// A turn is one of four, from degrees or iio-sensor-proxy's names, or none at all.
@Suite struct QuarterTurnTests {
    @Test func onlyTheFourTurnsAreMade() {
        #expect(QuarterTurn.allCases.map(\.degrees) == [0, 90, 180, 270])
        #expect(QuarterTurn(degrees: 270) == .threeQuarters && QuarterTurn(degrees: UInt32(90)) == .quarter)
        for nonsense in [-90, 45, 360, Int.max] { #expect(QuarterTurn(degrees: nonsense) == nil) }
        #expect(QuarterTurn(degrees: UInt32.max) == nil)
        #expect(QuarterTurn(sensorOrientation: "left-up") == .quarter && QuarterTurn(sensorOrientation: "right-up") == .threeQuarters)
        #expect(QuarterTurn(sensorOrientation: "undefined") == nil && QuarterTurn(sensorOrientation: "normal\n") == nil)
        #expect(QuarterTurn.quarter.swapsAxes && !QuarterTurn.half.swapsAxes && "\(QuarterTurn.half)" == "180°")
    }
}
