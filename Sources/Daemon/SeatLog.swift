import Logging
import Loop
import Pipeline
import SystemIO
import TouchCore

/// What the service's log says of the seat: what fired, and at debug level why; what
/// changed of the mode, pause, lock, rotation and sessions. Live, a step's lines wait a
/// moment for the loop to be idle (`due`): formatted and written at once, they held the
/// machine for as long from the receivers of the step's signal (in the VM, where the
/// signal's floor runs beside gestured, that was half a millisecond of a lift's 4 ms to
/// the listener). Nobody reads a log line 5 ms sooner.
final class SeatLog {
    static let waitMicroseconds: Int64 = 5000
    /// At most this many steps wait: more are written at once.
    static let mostWaiting = 256

    /// Whether its gestures' lines are written, or only its bugs (a monitor's).
    let service: Bool
    private var waiting: [(step: Step, panel: String)] = []
    private var changeLines = Daemon.controlLineAllowance(now: monotonicMicroseconds())
    /// When the steps waiting are written, if the loop has not been idle before.
    private(set) var due: Int64?

    init(service: Bool) {
        self.service = service
    }

    /// Whether `write` writes anything for the step at the log's level.
    func writes(_ step: Step, at level: Logger.Level) -> Bool {
        if !step.bugs.isEmpty { return true }
        guard service else { return false }
        if step.isNotable { return true }
        guard level <= .debug else { return false }
        return step.underTouch != nil || step.wakes != nil || step.stillDark != nil || !step.transitions.isEmpty || !step.delivery.isEmpty
    }

    /// A live step's lines, written within `waitMicroseconds`.
    func keep(_ step: Step, of panel: String, now: Int64, _ logger: Logger) {
        if waiting.count >= Self.mostWaiting { writeAll(logger) }
        waiting.append((step, panel))
        if due == nil { due = now + Self.waitMicroseconds }
    }

    /// The lines waiting, in order.
    func writeAll(_ logger: Logger) {
        for (step, panel) in waiting { write(step, of: panel, logger) }
        waiting.removeAll(keepingCapacity: true)
        due = nil
    }

    func write(_ step: Step, of name: String, _ logger: Logger) {
        for bug in step.bugs { logger.error("\(name): bug: \(bug)") }
        guard service else { return }
        if let note = step.underTouch { logger.debug("\(name): \(note)") }
        if let note = step.wakes { logger.debug("\(name): \(note)") }
        if let note = step.stillDark { logger.debug("\(name): \(note)") }
        for t in step.transitions {
            logger.debug("\(name): \(t.gesture): \(t.from.rawValue) → \(t.to.rawValue): \(t.reason)")
        }
        for event in step.events where event.phase != .changed {
            logger.info("\(name): \(event.name) (\(event.type.rawValue)) \(event.phase.rawValue), \(event.fingers) finger(s)")
        }
        for note in step.delivery {
            logger.debug("\(name): twin: \(note.summary): \(note.reason)")
        }
    }

    /// A change, as many as `controlLineAllowance` lets through. The application in front
    /// and the windows change at every click of another window: the debug log's.
    func say(_ change: ControlChange, now: Int64, _ logger: Logger) {
        guard changeLines.take(now: now) else { return }
        switch change.kind {
        case .app, .windows: logger.debug("\(change)")
        default: logger.info("\(change)")
        }
    }

    /// How many changes were left out, once a minute.
    func sayUnsaidChanges(now: Int64, _ logger: Logger) {
        guard let unsaid = changeLines.dueReport(now: now) else { return }
        logger.notice("\(unsaid) more changes of mode, pause, lock or rotation were not logged (20 at once, then 2 a second)")
    }
}
