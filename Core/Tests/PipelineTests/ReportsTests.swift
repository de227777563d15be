import Reports
import Testing
import TouchCore

@Suite struct JSONLineTests {
    @Test func escapesAndFixedPointNumbers() {
        var json = JSONLine()
        json.add("file", "a \"b\"\\c\n\u{1}")
        json.add("time", 1.5)
        json.add("x", -0.0000004)
        json.add("touch", 3)
        #expect(json.line == #"{"file":"a \"b\"\\c\n\u0001","time":1.500000,"x":0.000000,"touch":3}"#)
        #expect(fixed(-2.25, decimals: 1) == "-2.3")
        #expect(fixed(0.1234567, decimals: 4) == "0.1235")
    }

    /// A speed over a frame a microsecond long, from axes 2³² units wide at 1 unit/mm,
    /// is beyond any integer: printed clamped, never trapping.
    @Test func formattingIsTotal() {
        #expect(fixed(1e20, decimals: 4) == "1000000000000.0000")
        #expect(fixed(-4e15, decimals: 6) == "-1000000000000.000000")
        #expect(fixed(.nan, decimals: 2) == "0" && fixed(-.infinity, decimals: 0) == "0")
        #expect(fixed(2.5, decimals: 99) == "2.500000" && fixed(2.5, decimals: -3) == "3")
        #expect(Int64(saturating: .nan) == 0 && Int64(saturating: 1e300) == .max && Int64(saturating: -.infinity) == .min)
        #expect(Int(saturating: -2.7) == -2)
    }
}
