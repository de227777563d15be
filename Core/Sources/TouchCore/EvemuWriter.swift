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
func bitmask(_ numbers: [Int], minimumBytes: Int = 0) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: max(minimumBytes, (numbers.max() ?? -1) / 8 + 1))
    for n in numbers where n >= 0 { bytes[n / 8] |= 1 << (n % 8) }
    return bytes
}
