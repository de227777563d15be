import Bindings
import TouchCore

/// The seat's idleness (`[daemon] idle_s`): idle after that long without a touch on any
/// panel, active again at the next touch, each with its command and mode; and the last
/// touch, said on the bus at most once every `last_touch_interval_s`.
extension Seat {
    private var idleMS: Double? { config.daemon.idleSeconds.map { $0 * 1000 } }
    private var lastTouchIntervalMS: Double { config.daemon.lastTouchIntervalSeconds * 1000 }

    /// When it turns idle, or the last touch is to be said.
    var nextIdleDeadline: Timestamp? {
        Timestamp.earlier(idleness.deadline(idleMS: idleMS), lastTouchPace.due(intervalMS: lastTouchIntervalMS))
    }

    /// A touch began on some panel at `time`.
    func touched(at time: Timestamp) {
        dueKnown = false
        if idleness.touched(at: time), idleMS != nil {
            changed([ControlChange(kind: .idle(false), reason: "a touch")], at: time)
            run(config.daemon.activeCommand, as: "active_command")
            switchMode(to: config.daemon.activeMode, why: "active_mode", at: time)
        }
        if let said = lastTouchPace.offer(time, intervalMS: lastTouchIntervalMS) { say(lastTouch: said) }
    }

    func advanceIdleness(to time: Timestamp) {
        if let said = lastTouchPace.take(by: time, intervalMS: lastTouchIntervalMS) { say(lastTouch: said) }
        guard idleness.advance(to: time, idleMS: idleMS), let seconds = config.daemon.idleSeconds else { return }
        changed([ControlChange(kind: .idle(true), reason: "no touch for \(fixed(seconds, decimals: 3)) s")], at: time)
        run(config.daemon.idleCommand, as: "idle_command")
        switchMode(to: config.daemon.idleMode, why: "idle_mode", at: time)
    }

    private func say(lastTouch time: Timestamp) {
        lastTouchSaid = time
        effects.append(.announce([.lastTouch], rotatedPanels: []))
    }

    private func run(_ command: CommandForm?, as name: String) {
        guard let command else { return }
        effects.append(.run(CommandAction(binding: name, command: command, environment: [], maxRunning: 1)))
    }

    /// The configuration's own modes: always known.
    private func switchMode(to mode: String?, why: String, at time: Timestamp) {
        guard let mode, let change = try? control.setMode(mode, at: time, why: why) else { return }
        changed([change], at: time)
    }
}
