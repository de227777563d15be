/// Everything `evemu-device` needs to make a device like a recorded one: ids, property
/// and event-code bitmasks, and every absolute axis in full (`gestured record` writes it).
public struct EvemuDevice: Equatable, Sendable {
    public struct Axis: Equatable, Sendable {
        public var code: UInt16
        public var minimum: Int32
        public var maximum: Int32
        public var fuzz: Int32
        public var flat: Int32
        public var resolution: Int32

        public init(code: UInt16, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
            self.code = code
            self.minimum = minimum
            self.maximum = maximum
            self.fuzz = fuzz
            self.flat = flat
            self.resolution = resolution
        }
    }

    /// One event type's codes as the kernel's bitmask bytes (EVIOCGBIT), bit n for code n.
    public struct CodeMask: Equatable, Sendable {
        public var type: UInt16
        public var bytes: [UInt8]

        public init(type: UInt16, codes: [UInt16]) {
            self.type = type
            bytes = bitmask(codes.map(Int.init))
        }
    }

    public var name: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    /// INPUT_PROP_* numbers (INPUT_PROP_DIRECT = 1 for a touchscreen).
    public var properties: [UInt16]
    /// EV_SYN's mask (the event types) first, as evemu writes them.
    public var masks: [CodeMask]
    public var axes: [Axis]

    public init(name: String, bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16,
                properties: [UInt16], masks: [CodeMask], axes: [Axis]) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.masks = masks
        self.axes = axes
    }
}

extension Evemu {
    /// The description, as `evemu-record` writes it (EVEMU 1.3): N:, I:, P:, B:, A: lines,
    /// bitmasks 8 bytes a line. `comment` lines go first, after `# `.
    public static func header(_ device: EvemuDevice, comment: [String] = []) -> String {
        var text = "# EVEMU 1.3\n"
        for line in comment { text += "# \(line)\n" }
        // A newline in a name would end the N: line early; evemu-record keeps names as they are.
        text += "N: \(device.name.split(whereSeparator: \.isNewline).joined(separator: " "))\n"
        text += "I: " + [device.bus, device.vendor, device.product, device.version].map { hex($0, digits: 4) }.joined(separator: " ") + "\n"
        for line in maskLines(bitmask(device.properties.map(Int.init), minimumBytes: 8)) { text += "P: \(line)\n" }
        for mask in device.masks {
            for line in maskLines(mask.bytes) { text += "B: \(hex(mask.type, digits: 2)) \(line)\n" }
        }
        for a in device.axes {
            text += "A: \(hex(a.code, digits: 2)) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
        }
        return text
    }

    /// One `E:` line, its time in seconds from `start` (the recording's first event).
    public static func line(for event: InputEvent, since start: Timestamp) -> String {
        let elapsed = max(0, event.time.microseconds - start.microseconds)
        let micro = String(elapsed % 1_000_000)
        return "E: \(elapsed / 1_000_000).\(String(repeating: "0", count: 6 - micro.count))\(micro) "
            + "\(hex(event.type, digits: 4)) \(hex(event.code, digits: 4)) \(event.value)\n"
    }

    /// Bytes as `xx xx …`, 8 a line, the last line padded with zeros.
    private static func maskLines(_ bytes: [UInt8]) -> [String] {
        var padded = bytes
        while padded.isEmpty || padded.count % 8 != 0 { padded.append(0) }
        return stride(from: 0, to: padded.count, by: 8).map { start in
            padded[start..<start + 8].map { hex(UInt16($0), digits: 2) }.joined(separator: " ")
        }
    }
}

/// Bit n of byte n/8 for each number n, as the kernel lays out its bitmasks.
private func bitmask(_ numbers: [Int], minimumBytes: Int = 0) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: max(minimumBytes, (numbers.max() ?? -1) / 8 + 1))
    for n in numbers where n >= 0 { bytes[n / 8] |= 1 << (n % 8) }
    return bytes
}
