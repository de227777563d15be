import SystemPackage
import TouchCore

public enum OutputFormat: String, CaseIterable, Sendable {
    case text, jsonl
}

/// Replays recordings as fast as possible through the decoder, printing what happens.
public final class Replayer {
    public var showTouches = false
    public var format = OutputFormat.text
    /// A `.desc` file for events-only recordings, instead of the one found beside them.
    public var devicePath: String?

    private let output: OutputBuffer

    public init(output: OutputBuffer = OutputBuffer()) {
        self.output = output
    }

    /// Replays one file; false (after printing a located error) when it is malformed.
    public func replay(_ path: String) -> Bool {
        do {
            try replayOrThrow(path)
            return true
        } catch {
            output.flush()
            printError(error.description)
            return false
        }
    }

    private func replayOrThrow(_ path: String) throws(FileError) {
        let recording = try Recording.load(path, device: devicePath)
        guard var decoder = TouchDecoder(description: recording.description) else {
            throw FileError(path: path, message: "the device '\(recording.description.name)' has no position axes (A: lines for codes 00/01 or 35/36): not a touchscreen")
        }
        var printer = TouchPrinter(file: path, format: format, output: output)
        for event in recording.events where decoder.process(event) {
            if showTouches { printer.print(decoder.frame) }
        }
        let last = recording.events.last?.time ?? Timestamp(microseconds: 0)
        if decoder.cancelAll(at: last) {
            if showTouches { printer.print(decoder.frame) }
            throw FileError(path: path, line: recording.lastEventLine,
                            message: "the recording ends with \(decoder.frame.touches.count) touch(es) still down (reported cancelled): truncated?")
        }
    }
}

/// One line per touch phase change: every began, moved, ended and cancelled, and
/// stationary when a touch stops moving.
struct TouchPrinter {
    let file: String
    let format: OutputFormat
    let output: OutputBuffer
    private var lastPhase: [Int: TouchPhase] = [:]

    init(file: String, format: OutputFormat, output: OutputBuffer) {
        self.file = file
        self.format = format
        self.output = output
    }

    mutating func print(_ frame: TouchFrame) {
        for touch in frame.touches {
            let previous = touch.phase.isDown ? lastPhase.updateValue(touch.phase, forKey: touch.id) : lastPhase.removeValue(forKey: touch.id)
            if touch.phase == .stationary, previous == .stationary { continue }
            output.write(line: line(for: touch, at: frame.time))
        }
    }

    private func line(for touch: Touch, at time: Timestamp) -> String {
        switch format {
        case .jsonl:
            var json = JSONLine()
            json.add("file", file)
            json.add("time", time.seconds)
            json.add("touch", touch.id)
            json.add("phase", touch.phase.rawValue)
            json.add("x", touch.location.x)
            json.add("y", touch.location.y)
            return json.line
        case .text:
            return "\(file)  \(fixed(time.seconds, decimals: 6))  touch \(touch.id) \(touch.phase.rawValue)  x=\(fixed(touch.location.x, decimals: 4)) y=\(fixed(touch.location.y, decimals: 4))"
        }
    }
}

/// Errors go straight to stderr, unbuffered, so they sit next to the output they explain.
public func printError(_ message: String) {
    let line = Array((message + "\n").utf8)
    _ = try? line.withUnsafeBytes { try FileDescriptor.standardError.writeAll($0) }
}
