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
