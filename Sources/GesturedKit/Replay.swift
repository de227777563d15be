import Config
import Gestures
import SystemPackage
import TouchCore

public enum OutputFormat: String, CaseIterable, Sendable {
    case text, jsonl
}

/// Replays recordings as fast as possible, printing touches, gestures and, when
/// explaining, every recognizer's state changes with their reasons.
public final class Replayer {
    public var showTouches = false
    public var format = OutputFormat.text
    /// A `.desc` file for events-only recordings, instead of the one found beside them.
    public var devicePath: String?
    public var playback: Playback

    private let output: OutputBuffer

    public init(config: Configuration, output: OutputBuffer = OutputBuffer()) {
        self.playback = Playback(config: config)
        self.output = output
    }

    /// Replays one file; false (after printing a located error) when it is malformed.
    public func replay(_ path: String) -> Bool {
        do {
            let recording = try Recording.load(path, device: devicePath)
            var printer = ReplayPrinter(file: path, format: format, output: output)
            try playback.play(recording, frame: { frame in
                if showTouches { printer.print(frame) }
            }, step: { events, transitions in
                printer.print(transitions)
                printer.print(events)
            })
            return true
        } catch {
            output.flush()
            printError(error.description)
            return false
        }
    }
}

/// Formats what a replay shows, one line each, as text or JSON lines.
struct ReplayPrinter {
    let file: String
    let format: OutputFormat
    let output: OutputBuffer
    private var lastPhase: [Int: TouchPhase] = [:]

    init(file: String, format: OutputFormat, output: OutputBuffer) {
        self.file = file
        self.format = format
        self.output = output
    }

    /// One line per touch phase change: every began, moved, ended and cancelled, and
    /// stationary when a touch stops moving.
    mutating func print(_ frame: TouchFrame) {
        for touch in frame.touches {
            let previous = touch.phase.isDown ? lastPhase.updateValue(touch.phase, forKey: touch.id) : lastPhase.removeValue(forKey: touch.id)
            if touch.phase == .stationary, previous == .stationary { continue }
            output.write(line: line(for: touch, at: frame.time))
        }
    }

    func print(_ events: [GestureEvent]) {
        for event in events { output.write(line: line(for: event)) }
    }

    func print(_ transitions: [Transition]) {
        for t in transitions { output.write(line: line(for: t)) }
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

    private func line(for event: GestureEvent) -> String {
        switch format {
        case .jsonl:
            var json = JSONLine()
            json.add("file", file)
            json.add("time", event.time.seconds)
            for (key, value) in GestureFields.strings(event) { json.add(key, value) }
            json.add("fingers", event.fingers)
            for (key, value, decimals) in GestureFields.numbers(event) { json.add(key, value, decimals: decimals) }
            return json.line
        case .text:
            var text = "\(file)  \(fixed(event.time.seconds, decimals: 6))  gesture \(event.name) (\(event.type.rawValue)) \(event.phase.rawValue)  fingers=\(event.fingers)"
            if let direction = event.direction { text += " direction=\(direction.rawValue)" }
            for (key, value, decimals) in GestureFields.numbers(event) { text += " \(key)=\(fixed(value, decimals: decimals))" }
            return text
        }
    }

    private func line(for t: Transition) -> String {
        switch format {
        case .jsonl:
            var json = JSONLine()
            json.add("file", file)
            json.add("time", t.time.seconds)
            json.add("recognizer", t.gesture)
            json.add("from", t.from.rawValue)
            json.add("to", t.to.rawValue)
            json.add("reason", t.reason)
            return json.line
        case .text:
            let change = t.from == t.to ? "\(t.from.rawValue)" : "\(t.from.rawValue) → \(t.to.rawValue)"
            return "\(file)  \(fixed(t.time.seconds, decimals: 6))  \(t.gesture): \(change): \(t.reason)"
        }
    }
}

/// Errors go straight to stderr, unbuffered, so they sit next to the output they explain.
public func printError(_ message: String) {
    printErrorRaw(message + "\n")
}

func printErrorRaw(_ text: String) {
    let bytes = Array(text.utf8)
    _ = try? bytes.withUnsafeBytes { try FileDescriptor.standardError.writeAll($0) }
}
