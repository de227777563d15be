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
}
