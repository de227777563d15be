/// What the TOML parser made of a configuration's text, as the parsing helper
/// (`gestured-parse-config`) hands it to gestured: the document, or where and why it is
/// not TOML. The parser runs in that short-lived process, where its assertions on some
/// malformed files kill only the helper and what TOMLKit leaks with every string it
/// returns goes with it; the daemon reads this instead, and checks the document itself.
///
/// Written in a small binary form rather than JSON so that reading it links no JSON
/// decoder and no Foundation: a tag byte a value, lengths as 4 bytes, little-endian.
public enum ParseOutcome: Equatable, Sendable {
    case document(ConfigTable)
    /// Not TOML: where the parser stopped (1-based, when it said), and its words.
    case notTOML(line: Int?, column: Int?, message: String)

    /// The longest text parsed: gestured's configurations are a few KiB.
    public static let maximumTextSize = 1 << 20

    /// Tables and arrays nested deeper than this are refused: deeper than any
    /// configuration, and the reader below recurses once a level.
    public static let maximumDepth = 128

    private static let magic: [UInt8] = Array("gestured-parse 1\n".utf8)

    public var encoded: [UInt8] {
        var out = Self.magic
        switch self {
        case .document(let table):
            out.append(Tag.document.rawValue)
            Self.write(table, to: &out)
        case .notTOML(let line, let column, let message):
            out.append(Tag.notTOML.rawValue)
            Self.write(UInt64(bitPattern: Int64(line ?? 0)), to: &out)
            Self.write(UInt64(bitPattern: Int64(column ?? 0)), to: &out)
            Self.write(message, to: &out)
        }
        return out
    }

    /// Nil for bytes that are not a whole outcome (no helper wrote them, or it was cut short).
    public init?(decoding bytes: [UInt8]) {
        guard bytes.starts(with: Self.magic) else { return nil }
        var reader = Reader(bytes: bytes, offset: Self.magic.count)
        guard let tag = reader.byte().flatMap(Tag.init(rawValue:)) else { return nil }
        switch tag {
        case .document:
            guard let table = reader.table(depth: 0) else { return nil }
            self = .document(table)
        case .notTOML:
            guard let line = reader.int(), let column = reader.int(), let message = reader.string() else { return nil }
            self = .notTOML(line: line > 0 ? line : nil, column: column > 0 ? column : nil, message: message)
        default:
            return nil
        }
        guard reader.atEnd else { return nil }
    }

    private enum Tag: UInt8 {
        case document = 0x44, notTOML = 0x45
        case string = 1, integer, float, boolean, dateOrTime, array, table
    }

    private static func write(_ value: UInt64, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private static func write(count: Int, to out: inout [UInt8]) {
        let n = UInt32(clamping: count)
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: n >> UInt32(shift))) }
    }

    private static func write(_ string: String, to out: inout [UInt8]) {
        write(count: string.utf8.count, to: &out)
        out.append(contentsOf: string.utf8)
    }

    private static func write(_ table: ConfigTable, to out: inout [UInt8]) {
        write(count: table.count, to: &out)
        for (key, value) in table.entries {
            write(key, to: &out)
            write(value, to: &out)
        }
    }

    private static func write(_ value: ConfigValue, to out: inout [UInt8]) {
        switch value {
        case .string(let s):
            out.append(Tag.string.rawValue)
            write(s, to: &out)
        case .integer(let i):
            out.append(Tag.integer.rawValue)
            write(UInt64(bitPattern: Int64(i)), to: &out)
        case .float(let d):
            out.append(Tag.float.rawValue)
            write(d.bitPattern, to: &out)
        case .boolean(let b):
            out.append(Tag.boolean.rawValue)
            out.append(b ? 1 : 0)
        case .dateOrTime:
            out.append(Tag.dateOrTime.rawValue)
        case .array(let elements):
            out.append(Tag.array.rawValue)
            write(count: elements.count, to: &out)
            for element in elements { write(element, to: &out) }
        case .table(let table):
            out.append(Tag.table.rawValue)
            write(table, to: &out)
        }
    }

    /// Reads what `encoded` wrote, every length checked against what is left: a count
    /// never allocates more than the bytes could hold, and nothing traps.
    private struct Reader {
        let bytes: [UInt8]
        var offset: Int

        var atEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func word(_ size: Int) -> UInt64? {
            guard bytes.count - offset >= size else { return nil }
            var value: UInt64 = 0
            for i in 0..<size { value |= UInt64(bytes[offset + i]) << UInt64(8 * i) }
            offset += size
            return value
        }

        mutating func int() -> Int? { word(8).map { Int(Int64(bitPattern: $0)) } }

        /// A count of items of at least `itemSize` bytes each.
        mutating func count(itemSize: Int) -> Int? {
            guard let n = word(4).map(Int.init), n <= (bytes.count - offset) / itemSize else { return nil }
            return n
        }

        mutating func string() -> String? {
            guard let n = count(itemSize: 1) else { return nil }
            defer { offset += n }
            return String(validating: bytes[offset..<offset + n], as: UTF8.self)
        }

        mutating func table(depth: Int) -> ConfigTable? {
            guard depth <= ParseOutcome.maximumDepth, let n = count(itemSize: 5) else { return nil }
            var entries: [(String, ConfigValue)] = []
            entries.reserveCapacity(n)
            for _ in 0..<n {
                guard let key = string(), let value = value(depth: depth + 1) else { return nil }
                entries.append((key, value))
            }
            return ConfigTable(entries)
        }

        mutating func value(depth: Int) -> ConfigValue? {
            guard let tag = byte().flatMap(Tag.init(rawValue:)) else { return nil }
            switch tag {
            case .string: return string().map(ConfigValue.string)
            case .integer: return int().map(ConfigValue.integer)
            case .float: return word(8).map { .float(Double(bitPattern: $0)) }
            case .boolean:
                guard let b = byte(), b <= 1 else { return nil }
                return .boolean(b == 1)
            case .dateOrTime: return .dateOrTime
            case .array:
                guard depth <= ParseOutcome.maximumDepth, let n = count(itemSize: 1) else { return nil }
                var elements: [ConfigValue] = []
                elements.reserveCapacity(n)
                for _ in 0..<n {
                    guard let element = value(depth: depth + 1) else { return nil }
                    elements.append(element)
                }
                return .array(elements)
            case .table: return table(depth: depth).map(ConfigValue.table)
            case .document, .notTOML: return nil
            }
        }
    }
}
