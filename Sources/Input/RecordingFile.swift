import SystemIO
import TouchCore

extension Recording {
    /// The largest recording read: an hour of ten fingers is about 100 MB of evemu text.
    public static let maximumFileSize = 256 << 20

    /// Reads a self-contained recording, or an events-only one with the description in
    /// `device` or in a `.desc` file beside it (see `pairedDescriptionPath`).
    public static func load(_ path: String, device: String? = nil) throws(FileError) -> Recording {
        let parsed = try parse(path)
        guard !parsed.events.isEmpty || (path.hasSuffix(".desc") && parsed.description != nil) else {
            throw FileError(path: path, message: "no events (E: lines): an empty or truncated recording")
        }
        var description = parsed.description
        if let devicePath = device ?? (description == nil ? pairedDescriptionPath(for: path) : nil) {
            description = try parse(devicePath).description
            guard description != nil else {
                throw FileError(path: devicePath, message: "no device description (N: and A: lines)")
            }
        }
        guard let description else {
            throw FileError(path: path, message: "events without a device description: put the .desc file beside it (named like 'DEVICE.desc' for 'DEVICE.something.events') or pass --device FILE.desc")
        }
        return Recording(path: path, description: description, events: parsed.events, lastEventLine: parsed.lastEventLine,
                         start: parsed.start)
    }

    /// `Atmel maXTouch Touchscreen.1-finger-fast-taps.events` pairs with
    /// `Atmel maXTouch Touchscreen.desc`: the longest dot-separated prefix that has one.
    public static func pairedDescriptionPath(for path: String) -> String? {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        var stem = path[...]
        while let dot = stem[slash...].lastIndex(of: ".") {
            stem = stem[..<dot]
            let candidate = String(stem) + ".desc"
            if candidate != path, Files.exists(candidate) { return candidate }
        }
        return nil
    }

    private static func parse(_ path: String) throws(FileError) -> EvemuRecording {
        let bytes: [UInt8]
        do { bytes = try Files.read(path, atMost: maximumFileSize) } catch {
            throw FileError(path: path, message: "\(error)")
        }
        do { return try Evemu.parse(bytes) } catch {
            throw FileError(path: path, line: error.line, message: error.message)
        }
    }
}
