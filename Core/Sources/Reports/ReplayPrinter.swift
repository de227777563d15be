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

    /// A printer for another file that shows what this one shows, in its format.
    public func printing(file: String) -> ReplayPrinter {
        var printer = ReplayPrinter(file: file, format: format, write: write)
        printer.showTouches = showTouches
        printer.showTransitions = showTransitions
        printer.showActions = showActions
        printer.showDelivery = showDelivery
        printer.showTwin = showTwin
        return printer
    }

    /// A step's lines: its touches (when shown), the state changes, then the gesture events.
    public mutating func print(_ step: Step) {
        if showTouches, let frame = step.frame { print(frame) }
        if showTransitions, let note = step.underTouch {
            write(OutputLine(file: file, time: step.input.time, [.word("apps:"), .field("under_touch", .string(note))]))
        }
        if let note = step.wakes {
            write(OutputLine(file: file, time: step.input.time, [.word("wake:"), .field("wakes", .string(note))]))
        }
        if let note = step.stillDark {
            write(OutputLine(file: file, time: step.input.time, [.word("wake:"), .field("still_dark", .string(note))]))
        }
        if showTransitions { for t in step.transitions { write(line(for: t)) } }
        for event in step.events { write(line(for: event)) }
        if showActions { for action in step.actions { write(line(for: action.action)) } }
        if showDelivery { for note in step.delivery { write(line(for: note)) } }
        if showTwin { print(step.twin, to: "twin") }
        for bug in step.bugs { write(OutputLine(file: file, [.word("bug:"), .field("bug", .string(bug))])) }
    }

    /// A mode switch, a pause, a resume, a lock change or a rotation: one line, in words
    /// for people and as fields for programs.
    public func print(_ change: ControlChange) {
        var parts: [OutputLine.Part] = [.word(change.description)]
        switch change.kind {
        case .mode(let from, let to):
            parts += [.hidden("control", .string("mode")), .hidden("from", .string(from)), .hidden("to", .string(to))]
        case .paused(let seconds):
            parts.append(.hidden("control", .string("paused")))
            if let seconds { parts.append(.hidden("seconds", .number(seconds, decimals: 3, jsonDecimals: 3))) }
        case .resumed: parts.append(.hidden("control", .string("resumed")))
        case .locked: parts.append(.hidden("control", .string("locked")))
        case .logindSilent(let locked, let everHeard):
            parts += [.hidden("control", .string("logind silent")), .hidden("locked", .integer(locked ? 1 : 0)),
                      .hidden("ever_heard", .integer(everHeard ? 1 : 0))]
        case .unlocked: parts.append(.hidden("control", .string("unlocked")))
        case .touchLocked: parts.append(.hidden("control", .string("touch locked")))
        case .touchUnlocked: parts.append(.hidden("control", .string("touch unlocked")))
        case .tablet(let tablet): parts.append(.hidden("control", .string(tablet ? "tablet mode" : "laptop mode")))
        case .idle(let idle): parts.append(.hidden("control", .string(idle ? "idle" : "active")))
        case .rotated(let turn):
            parts += [.hidden("control", .string("rotated")), .hidden("degrees", .integer(Int(turn.degrees)))]
        case .panelRotated(let device, let turn):
            parts += [.hidden("control", .string("rotated")), .hidden("device", .string(device)), .hidden("degrees", .integer(Int(turn.degrees)))]
        case .app(let app, _):
            parts.append(.hidden("control", .string("app")))
            if let app { parts.append(.hidden("app", .string(app.description))) }
        case .windows(let windows):
            parts.append(.hidden("control", .string("windows")))
            if let windows { parts.append(.hidden("windows", .integer(windows.windows.count))) }
        case .screens(let screens):
            parts += [.hidden("control", .string("screens")), .hidden("screens", .string(screens.description))]
        case .session(let inFront):
            parts.append(.hidden("control", .string(inFront ? "session in front" : "session away")))
        case .activeSession(let session, let count):
            parts.append(.hidden("control", .string("active session")))
            if let session { parts += [.hidden("session", .string(session.id)), .hidden("uid", .integer(Int(session.user)))] }
            if let count { parts.append(.hidden("user_gestures", .integer(count))) }
        case .userGestures(let user, let file, let count):
            parts += [.hidden("control", .string("user gestures")), .hidden("uid", .integer(Int(user))), .hidden("file", .string(file)),
                      .hidden("user_gestures", .integer(count))]
        case .userGesturesRefused(let user, _):
            parts += [.hidden("control", .string("user gestures refused")), .hidden("uid", .integer(Int(user)))]
        case .agentLeft(let session):
            parts += [.hidden("control", .string("agent left")), .hidden("session", .string(session.id))]
        }
        parts.append(.hidden("reason", .string(change.reason)))
        write(OutputLine(file: file, parts))
    }

    /// A command of the session in front's user's gesture, told to their agent (by its
    /// bus name): the binding, never the command.
    public func print(_ action: AgentAction) {
        write(OutputLine(file: file, [.word("agent"), .field("agent", .string(action.binding), after: ":"),
                                      .field("kind", .string(action.kind.rawValue)), .word("to"), .field("to", .string(action.agent))]))
    }

    /// What the seat had performed beyond its steps, as gestured's own lines: with
    /// `showActions`, what went to an agent, what the service ran or signalled itself, the
    /// overlay's updates and what was dropped; with `showTwin`, what gestured's keyboard,
    /// pointer and touchpad got. Nothing for the rest.
    public func print(performed effect: SeatEffect) {
        switch effect {
        case .toAgent(let action) where showActions:
            print(action)
        case .run(let command) where showActions:
            printByTheService(command.binding, .command)
        case .signal(let event, _, _) where showActions:
            printByTheService(event.name, .signal)
        case .feedback(let frame, let agent) where showActions:
            print(frame, to: agent)
        case .inspection(let frame, let inspector) where showActions:
            print(inspection: frame, to: inspector)
        case .progress(let update, let agent) where showActions:
            write(OutputLine(file: file, [.word("progress"), .field("progress", .string(update.gesture), after: ":"), .named("tag", .string(update.tag)),
                                          .named("at", .number(update.progress, decimals: 3, jsonDecimals: 3)), .field("phase", .string(update.phase.rawValue)),
                                          .word("to"), .field("to", .string(agent))]))
        case .dropped(let action, let session, _) where showActions:
            print(dropped: action, session: session)
        case .write(.keyboard, let events) where showTwin:
            print(events, to: "keyboard")
        case .write(.pointer, let events) where showTwin:
            print(events, to: "pointer")
        case .write(.touchpad, let events) where showTwin:
            print(events, to: "touchpad")
        default:
            break
        }
    }

    /// A command the service runs itself, or a signal it emits on the system bus: the
    /// machine's gestures' alone.
    public func printByTheService(_ binding: String, _ kind: AgentAction.Kind) {
        write(OutputLine(file: file, [.word("service"), .field("service", .string(binding), after: ":"), .field("kind", .string(kind.rawValue))]))
    }

    /// An overlay update sent to a session's agent: its fingers and its lead gesture.
    public func print(_ frame: FeedbackFrame, to agent: String) {
        write(OutputLine(file: file, [.word("overlay"), .field("panel", .string(frame.panel), after: ":"),
                                      .named("fingers", .integer(frame.fingers.count)), .named("lead", .string(frame.lead.gesture ?? "-")),
                                      .named("verdict", .string(frame.lead.verdict.rawValue)), .word("to"), .field("to", .string(agent))]))
    }

    /// An inspector's update: its fingers, each gesture in the running with its state and
    /// progress, and once the fingers lifted, why each ended as it did.
    public func print(inspection frame: FeedbackFrame, to inspector: String) {
        guard let detail = frame.detail else { return }
        let gestures = detail.gestures.map { gesture in
            "\(gesture.name) \(gesture.state.rawValue) \(fixed(gesture.progress, decimals: 2))"
                + (detail.over ? gesture.why.map { " (\($0))" } ?? "" : "")
        }
        write(OutputLine(file: file, [.word("inspection"), .field("panel", .string(frame.panel), after: ":"),
                                      .named("fingers", .integer(frame.fingers.count)), .named("app", .string(detail.app ?? "-")),
                                      .field("over", .string(detail.over ? "over" : "under way")),
                                      .field("gestures", .string(gestures.joined(separator: "; ")), before: "[", after: "]"),
                                      .word("to"), .field("to", .string(inspector))]))
    }

    /// A session's action dropped: that session is not in front.
    public func print(dropped action: Action, session: String) {
        write(OutputLine(file: file, [.word("dropped"), .field("dropped", .string(action.binding), after: ":"), .field("kind", .string(action.kind)),
                                      .field("session", .string(SeatSession(id: session, user: 0).name), before: "(session ", after: " not in front)")]))
    }

    /// One line per frame one of gestured's uinput devices gets (`device`: twin, keyboard
    /// or pointer), its events as TYPE:CODE=VALUE in hex codes, as evemu names them.
    public func print(_ events: [InputEvent], to device: String) {
        var frame: [String] = []
        for event in events {
            if event.type == EventType.syn, event.code == SynCode.report {
                write(OutputLine(file: file, [.word(device), .field(device, .string(frame.joined(separator: " ")))]))
                frame.removeAll()
            } else {
                frame.append(String(event.type, radix: 16) + ":" + String(event.code, radix: 16) + "=\(event.value)")
            }
        }
    }

    private func write(_ line: OutputLine) {
        write(line.rendered(as: format))
    }

    /// One line per touch phase change: every began, moved, ended and cancelled, and
    /// stationary when a touch stops moving.
    private mutating func print(_ frame: TouchFrame) {
        for touch in frame.touches {
            let previous = touch.phase.isDown ? lastPhase.updateValue(touch.phase, forKey: touch.id) : lastPhase.removeValue(forKey: touch.id)
            if touch.phase == .stationary, previous == .stationary { continue }
            write(OutputLine(file: file, time: frame.time, [
                .word("touch"), .field("touch", .integer(touch.id)), .field("phase", .string(touch.phase.rawValue)), .gap,
                .named("x", .number(touch.location.x, decimals: 4, jsonDecimals: 6)),
                .named("y", .number(touch.location.y, decimals: 4, jsonDecimals: 6)),
            ]))
        }
    }

    private func line(for event: GestureEvent) -> OutputLine {
        var parts: [OutputLine.Part] = [
            .word("gesture"), .field("gesture", .string(event.name)), .field("type", .string(event.type.rawValue), before: "(", after: ")"),
            .field("phase", .string(event.phase.rawValue)), .gap, .named("fingers", .integer(event.fingers)),
        ]
        parts.append(event.tool == .finger ? .hidden("tool", .string(event.tool.rawValue)) : .named("tool", .string(event.tool.rawValue)))
        if let direction = event.direction { parts.append(.named("direction", .string(direction.rawValue))) }
        for (key, value, decimals) in GestureFields.numbers(event) {
            parts.append(.named(key, .number(value, decimals: decimals, jsonDecimals: decimals)))
        }
        return OutputLine(file: file, time: event.time, parts)
    }

    private func line(for t: Transition) -> OutputLine {
        var parts: [OutputLine.Part] = [.field("recognizer", .string(t.gesture), after: ":")]
        if t.from == t.to {
            parts += [.field("from", .string(t.from.rawValue), after: ":"), .hidden("to", .string(t.to.rawValue))]
        } else {
            parts += [.field("from", .string(t.from.rawValue)), .word("→"), .field("to", .string(t.to.rawValue), after: ":")]
        }
        parts.append(.field("reason", .string(t.reason)))
        return OutputLine(file: file, time: t.time, parts)
    }

    private func line(for note: DeliveryNote) -> OutputLine {
        var parts: [OutputLine.Part] = [.word("twin: \(note.summary):")]
        if case .changed(let from, let to) = note.kind {
            parts += [.hidden("twin_from", .string(from.rawValue)), .hidden("twin_to", .string(to.rawValue))]
        } else {
            parts += [.hidden("delivery", .string(note.kind.description)), .hidden("count", .integer(note.count))]
        }
        parts.append(.field("reason", .string(note.reason)))
        return OutputLine(file: file, time: note.time, parts)
    }

    private func line(for action: Action) -> OutputLine {
        let parts: [OutputLine.Part]
        switch action {
        case .run(let command):
            parts = [.word("run"), .field("run", .string(command.binding), after: ":"), .field("command", .string(command.command.text))]
        case .signal(let event, let device, let step):
            var signal: [OutputLine.Part] = [.word("signal"), .field("signal", .string(event.name)), .field("phase", .string(event.phase.rawValue)),
                                             .word("on"), .field("device", .string(device), before: "'", after: "'")]
            if let step {
                signal += [.word("step"), .field("step", .integer(step.delta), before: step.delta > 0 ? "+" : ""),
                           .field("steps", .integer(step.net), before: "(", after: " since began)")]
            }
            parts = signal
        case .keys(let binding, let keys):
            parts = [.word("keys"), .field("keys", .string(binding), after: ":"), .field("pressed", .string(keys.text))]
        case .click(let binding, let click, let location):
            parts = [.word("click"), .field("click", .string(binding), after: ":")] + (click.count == 2 ? [.word("double")] : [])
                + [.field("button", .string(click.button.rawValue)), .hidden("count", .integer(click.count)), .word("at"),
                   .named("x", .number(location.x, decimals: 4, jsonDecimals: 4)), .named("y", .number(location.y, decimals: 4, jsonDecimals: 4))]
        case .hold(let hold):
            var held: [OutputLine.Part] = [.word("hold"), .field("hold", .string(hold.binding), after: ":"), .field("moment", .string(hold.moment.rawValue))]
            if hold.moment != .follow { held.append(.field("held", .string(hold.hold.text))) }
            if hold.hold.pointer, hold.moment != .release {
                held += [.word("at"), .named("x", .number(hold.location.x, decimals: 4, jsonDecimals: 4)),
                         .named("y", .number(hold.location.y, decimals: 4, jsonDecimals: 4))]
            }
            parts = held
        case .touchpad(let action):
            parts = [.word("touchpad"), .field("touchpad", .string(action.binding), after: ":"), .field("moment", .string(action.moment.rawValue)),
                     .named("fingers", .integer(action.touches.count))]
        case .scroll(let turn):
            parts = [.word("scroll"), .field("scroll", .string(turn.binding), after: ":"),
                     .named("vertical", .integer(turn.vertical)), .named("horizontal", .integer(turn.horizontal))]
        case .fling(let fling):
            parts = [.word("fling"), .field("fling", .string(fling.binding), after: ":"),
                     .field("speed", .number(fling.velocity.length, decimals: 0, jsonDecimals: 1), after: " mm/s")]
        case .mode(let binding, let change):
            parts = [.word("mode"), .field("mode", .string(binding), after: ":"), .field("to", .string(change.mode))]
        case .pause(let binding, let seconds):
            parts = [.word("pause"), .field("pause", .string(binding), after: ":"), .field("seconds", .number(seconds, decimals: 3, jsonDecimals: 3), after: " s")]
        case .touchLock(let binding, let change):
            parts = [.word("touch lock"), .field("touch_lock", .string(binding), after: ":"), .field("change", .string(change.rawValue))]
        }
        return OutputLine(file: file, parts)
    }
}
