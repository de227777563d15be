/// Reads both evemu variants: old files (5-field `A:` lines, unpadded values, absolute
/// epoch timestamps) and new ones (6-field `A:` lines, zero-padded values like `-001`,
/// times from 0, `# comments` after a tab). Works on bytes: thousands of files are
/// replayed in one process.
public enum Evemu {
    public static func parse(_ text: [UInt8]) throws(EvemuError) -> EvemuRecording {
        var parser = LineParser()
        var lineNumber = 0
        var start = 0
        while start < text.count {
            lineNumber += 1
            var end = start
            while end < text.count, text[end] != UInt8(ascii: "\n") { end += 1 }
            try parser.parse(line: text[start..<end], number: lineNumber)
            start = end + 1
        }
        return try parser.finish()
    }
}

private struct LineParser {
    var name: String?
    var ids: [UInt16] = []
    var axes: [AbsoluteAxis] = []
    /// EV_KEY's bitmask, from its `B: 01` lines in order: whether it is a pen.
    var keyBits: [UInt8] = []
    var events: [InputEvent] = []
    var firstEventTime: Int64?
    var lastEventLine = 0

    mutating func parse(line: ArraySlice<UInt8>, number: Int) throws(EvemuError) {
        let fields = Fields(line)
        guard let tag = fields.tag else { return }  // blank or comment
        func fail(_ message: String) -> EvemuError { EvemuError(line: number, message: message) }
        if tag != "E", let letter = tag.first, "NIPBALS".contains(letter), !events.isEmpty {
            throw fail("'\(tag):' line after the events: a recording has its description first (two files joined?)")
        }
        switch tag {
        case "E":
            guard fields.count == 4, let time = fields.time(0), let type = fields.hex(1).flatMap(UInt16.init(exactly:)),
                  let code = fields.hex(2).flatMap(UInt16.init(exactly:)), let value = fields.decimal(3).flatMap(Int32.init(exactly:)) else {
                throw fail("expected 'E: SECONDS.MICROSECONDS TYPE CODE VALUE' (hex type and code), found '\(fields.text)'")
            }
            let t0 = firstEventTime ?? time
            firstEventTime = t0
            events.append(InputEvent(time: Timestamp(microseconds: time - t0), type: type, code: code, value: value))
            lastEventLine = number
        case "N":
            name = fields.text
        case "I":
            guard fields.count == 4, let values = fields.allHex(), values.allSatisfy({ UInt16(exactly: $0) != nil }) else {
                throw fail("expected 'I: BUS VENDOR PRODUCT VERSION' in hex, found '\(fields.text)'")
            }
            ids = values.map { UInt16($0) }
        case "A":
            guard fields.count == 5 || fields.count == 6, let code = fields.hex(0).flatMap(UInt16.init(exactly:)),
                  let numbers = fields.allDecimal(from: 1) else {
                throw fail("expected 'A: CODE MIN MAX FUZZ FLAT [RESOLUTION]' (hex code, decimal values), found '\(fields.text)'")
            }
            // FUZZ and FLAT (numbers[2], numbers[3]) are the kernel's filtering, done before us.
            axes.append(AbsoluteAxis(code: code, minimum: numbers[0], maximum: numbers[1], resolution: numbers.count > 4 ? numbers[4] : 0))
        case "P", "B", "L", "S":
            // Property and event-type bitmasks, LED and switch states: the axes say all we
            // use, and the keys whether it is a pen.
            guard fields.count >= 1, let values = fields.allHex() else {
                throw fail("expected hex bytes after '\(tag):', found '\(fields.text)'")
            }
            // A key mask longer than the kernel's (KEY_MAX) is not one: it is not kept.
            if tag == "B", values.first == 1, keyBits.count < 96 { keyBits += values.dropFirst().map { UInt8(truncatingIfNeeded: $0) } }
        default:
            throw fail("unexpected '\(fields.text.prefix(40))': not an evemu line (N:, I:, P:, B:, A:, E: or # comment)")
        }
    }

    /// BTN_TOOL_PEN or BTN_TOOL_RUBBER in the key mask.
    static func isPen(_ bits: [UInt8]) -> Bool {
        [KeyCode.btnToolPen, KeyCode.btnToolRubber].contains { code in
            let byte = Int(code / 8)
            return byte < bits.count && bits[byte] & (1 << (code % 8)) != 0
        }
    }

    func finish() throws(EvemuError) -> EvemuRecording {
        if let last = events.last, !(last.type == EventType.syn && last.code == SynCode.report) {
            throw EvemuError(line: lastEventLine, message: "the recording ends in the middle of a frame (no SYN_REPORT after the last event): truncated?")
        }
        var description: DeviceDescription?
        if name != nil || !axes.isEmpty {
            description = DeviceDescription(name: name ?? "unnamed device", axes: axes, tool: Self.isPen(keyBits) ? .pen : .finger)
            if ids.count == 4 {
                description?.bus = ids[0]
                description?.vendor = ids[1]
                description?.product = ids[2]
            }
        }
        return EvemuRecording(description: description, events: events, lastEventLine: lastEventLine,
                              start: Timestamp(microseconds: firstEventTime ?? 0))
    }
}

/// The whitespace-separated fields of one line after its `X:` tag, up to a `#` comment.
private struct Fields {
    let tag: String?
    private let line: ArraySlice<UInt8>
    private var ranges: [Range<Int>] = []
    private var body: Range<Int>

    init(_ line: ArraySlice<UInt8>) {
        self.line = line
        var end = line.endIndex
        if end > line.startIndex, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var i = line.startIndex
        while i < end, Self.isSpace(line[i]) { i += 1 }
        if i == end || line[i] == UInt8(ascii: "#") {
            tag = nil
            body = end..<end
            return
        }
        guard i + 1 < end, line[i + 1] == UInt8(ascii: ":") else {
            tag = ""  // not an evemu line: `text` shows all of it
            body = i..<end
            return
        }
        tag = String(UnicodeScalar(line[i]))
        i += 2
        body = i..<end
        var fieldStart: Int?
        while i < end {
            let c = line[i]
            if c == UInt8(ascii: "#") { break }
            if Self.isSpace(c) {
                if let s = fieldStart { ranges.append(s..<i); fieldStart = nil }
            } else if fieldStart == nil {
                fieldStart = i
            }
            i += 1
        }
        if let s = fieldStart { ranges.append(s..<i) }
    }

    var count: Int { ranges.count }

    /// The line after its tag, up to a tab-separated comment: device names, error messages.
    var text: String {
        var lower = body.lowerBound
        var upper = line[body].firstIndex(of: UInt8(ascii: "\t")) ?? body.upperBound
        while lower < upper, line[lower] == UInt8(ascii: " ") { lower += 1 }
        while upper > lower, line[upper - 1] == UInt8(ascii: " ") { upper -= 1 }
        return String(decoding: line[lower..<upper], as: UTF8.self)
    }

    func hex(_ index: Int) -> Int64? { number(ranges[index], radix: 16) }
    func decimal(_ index: Int) -> Int64? { number(ranges[index], radix: 10) }

    func allHex() -> [Int64]? {
        var values: [Int64] = []
        for r in ranges {
            guard let v = number(r, radix: 16) else { return nil }
            values.append(v)
        }
        return values
    }

    func allDecimal(from first: Int) -> [Int32]? {
        var values: [Int32] = []
        for r in ranges[first...] {
            guard let v = number(r, radix: 10), let v32 = Int32(exactly: v) else { return nil }
            values.append(v32)
        }
        return values
    }

    /// `SECONDS.MICROSECONDS` in microseconds; fewer than six fraction digits are allowed.
    func time(_ index: Int) -> Int64? {
        let r = ranges[index]
        guard let dot = line[r].firstIndex(of: UInt8(ascii: ".")),
              let seconds = number(r.lowerBound..<dot, radix: 10, signed: false),
              seconds < 1 << 40 else { return nil }
        var micros: Int64 = 0
        var digits = 0
        for c in line[(dot + 1)..<r.upperBound] {
            guard let d = Self.digit(c, radix: 10) else { return nil }
            if digits < 6 { micros = micros * 10 + d }
            digits += 1
        }
        guard digits > 0 else { return nil }
        for _ in digits..<max(digits, 6) { micros *= 10 }
        return seconds * 1_000_000 + micros
    }

    private func number(_ r: Range<Int>, radix: Int64, signed: Bool = true) -> Int64? {
        var i = r.lowerBound
        var negative = false
        if signed, i < r.upperBound, line[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        guard i < r.upperBound else { return nil }
        var value: Int64 = 0
        while i < r.upperBound {
            guard let d = Self.digit(line[i], radix: radix) else { return nil }
            // Too many digits for 64 bits: not a number this format can hold.
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: radix)
            guard !overflowed, shifted <= Int64.max - d else { return nil }
            value = shifted + d
            i += 1
        }
        return negative ? -value : value
    }

    private static func digit(_ c: UInt8, radix: Int64) -> Int64? {
        let d: Int64
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): d = Int64(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): d = Int64(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): d = Int64(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
        return d < radix ? d : nil
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") }
}
