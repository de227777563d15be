import Bindings
import Delivery
import Gestures
import Pipeline
import TouchCore

/// Formats what a replay shows, one line each, as text or JSON lines.
public struct ReplayPrinter {
    public let file: String
    public let format: OutputFormat
    public var showTouches = false
    /// Print the recognizers' state changes (the steps have them when the pipeline explains).
    public var showTransitions = true
    /// Also print what the bindings would do.
    public var showActions = false
    /// Also print an isolated panel's delivery decisions (held, delivered, dropped, cancelled).
    public var showDelivery = false
    /// Also print each frame its uinput twin gets.
    public var showTwin = false
    private let write: (String) -> Void
    private var lastPhase: [Int: TouchPhase] = [:]

    /// `write` takes one line at a time, without its newline.
    public init(file: String, format: OutputFormat, write: @escaping (String) -> Void) {
        self.file = file
        self.format = format
        self.write = write
    }

    /// A step's lines: its touches (when shown), the state changes, then the gesture events.
    public mutating func print(_ step: Step) {
        if showTouches, let frame = step.frame { print(frame) }
        if showTransitions { for t in step.transitions { write(line(for: t)) } }
        for event in step.events { write(line(for: event)) }
        if showActions { for action in step.actions { write(line(for: action)) } }
        if showDelivery { for note in step.delivery { write(line(for: note)) } }
        if showTwin { print(step.twin, to: "twin") }
        for bug in step.bugs { write("\(file)  bug: \(bug)") }
    }

    /// A mode switch, a pause, a resume or a lock change: one line.
    public func print(_ change: ControlChange) {
        switch format {
        case .text:
            write("\(file)  \(change)")
        case .jsonl:
            var json = JSONLine()
            json.add("file", file)
            switch change.kind {
            case .mode(let from, let to):
                json.add("control", "mode")
                json.add("from", from)
                json.add("to", to)
            case .paused(let seconds):
                json.add("control", "paused")
                if let seconds { json.add("seconds", seconds, decimals: 3) }
            case .resumed: json.add("control", "resumed")
            case .locked: json.add("control", "locked")
            case .unlocked: json.add("control", "unlocked")
            case .rotated(let turn):
                json.add("control", "rotated")
                json.add("degrees", turn.degrees)
            case .panelRotated(let device, let turn):
                json.add("control", "rotated")
                json.add("device", device)
                json.add("degrees", turn.degrees)
            }
            json.add("reason", change.reason)
            write(json.line)
        }
    }

    /// One line per touch phase change: every began, moved, ended and cancelled, and
    /// stationary when a touch stops moving.
    private mutating func print(_ frame: TouchFrame) {
        for touch in frame.touches {
            let previous = touch.phase.isDown ? lastPhase.updateValue(touch.phase, forKey: touch.id) : lastPhase.removeValue(forKey: touch.id)
            if touch.phase == .stationary, previous == .stationary { continue }
            write(line(for: touch, at: frame.time))
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
            if event.tool != .finger { text += " tool=\(event.tool.rawValue)" }
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

    private func line(for note: DeliveryNote) -> String {
        switch format {
        case .jsonl:
            var json = JSONLine()
            json.add("file", file)
            json.add("time", note.time.seconds)
            if case .changed(let from, let to) = note.kind {
                json.add("twin_from", from.rawValue)
                json.add("twin_to", to.rawValue)
            } else {
                json.add("delivery", note.kind.description)
                json.add("count", note.count)
            }
            json.add("reason", note.reason)
            return json.line
        case .text:
            return "\(file)  \(fixed(note.time.seconds, decimals: 6))  twin: \(note.summary): \(note.reason)"
        }
    }

    /// One line per frame one of gestured's uinput devices gets (`device`: twin, keyboard
    /// or pointer), its events as TYPE:CODE=VALUE in hex codes, as evemu names them.
    public func print(_ events: [InputEvent], to device: String) {
        var frame: [String] = []
        for event in events {
            if event.type == EventType.syn, event.code == SynCode.report {
                switch format {
                case .jsonl:
                    var json = JSONLine()
                    json.add("file", file)
                    json.add(device, frame.joined(separator: " "))
                    write(json.line)
                case .text:
                    write("\(file)  \(device) \(frame.joined(separator: " "))")
                }
                frame.removeAll()
            } else {
                frame.append(String(event.type, radix: 16) + ":" + String(event.code, radix: 16) + "=\(event.value)")
            }
        }
    }

    private func line(for action: Action) -> String {
        switch format {
        case .jsonl:
            var json = JSONLine()
            json.add("file", file)
            switch action {
            case .run(let command):
                json.add("run", command.binding)
                json.add("command", command.command.text)
            case .signal(let event, let device, let step):
                json.add("signal", event.name)
                json.add("phase", event.phase.rawValue)
                json.add("device", device)
                if let step {
                    json.add("step", step.delta)
                    json.add("steps", step.net)
                }
            case .keys(let binding, let keys):
                json.add("keys", binding)
                json.add("pressed", keys.text)
            case .click(let binding, let click, let location):
                json.add("click", binding)
                json.add("button", click.button.rawValue)
                json.add("count", click.count)
                json.add("x", location.x, decimals: 4)
                json.add("y", location.y, decimals: 4)
            case .scroll(let turn):
                json.add("scroll", turn.binding)
                json.add("vertical", turn.vertical)
                json.add("horizontal", turn.horizontal)
            case .mode(let binding, let change):
                json.add("mode", binding)
                json.add("to", change.mode)
            case .pause(let binding, let seconds):
                json.add("pause", binding)
                json.add("seconds", seconds, decimals: 3)
            }
            return json.line
        case .text:
            switch action {
            case .run(let command):
                return "\(file)  run \(command.binding): \(command.command.text)"
            case .signal(let event, let device, let step):
                let stepped = step.map { " step \($0.delta > 0 ? "+" : "")\($0.delta) (\($0.net) since began)" } ?? ""
                return "\(file)  signal \(event.name) \(event.phase.rawValue) on '\(device)'\(stepped)"
            case .keys(let binding, let keys):
                return "\(file)  keys \(binding): \(keys.text)"
            case .click(let binding, let click, let location):
                return "\(file)  click \(binding): \(click.count == 2 ? "double " : "")\(click.button.rawValue) at x=\(fixed(location.x, decimals: 4)) y=\(fixed(location.y, decimals: 4))"
            case .scroll(let turn):
                return "\(file)  scroll \(turn.binding): vertical=\(turn.vertical) horizontal=\(turn.horizontal)"
            case .mode(let binding, let change):
                return "\(file)  mode \(binding): \(change.mode)"
            case .pause(let binding, let seconds):
                return "\(file)  pause \(binding): \(fixed(seconds, decimals: 3)) s"
            }
        }
    }
}
