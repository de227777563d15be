import Bindings
import Effects
import Input
import Pipeline
import SystemIO
import TouchCore

/// What the seat says to do, done: the daemon's only sink. A monitor performs no command,
/// signal or write (its seat asks for no grab); it shows and logs.
extension Daemon {
    func perform(_ effect: SeatEffect) {
        let acts = options.mode == .service
        switch effect {
        case .step(let node, _, let step):
            if !step.isQuiet { options.show?(effect) }
            afterwards.append(.log(step, of: node))
        case .run(let command):
            if acts { afterwards.append(.run(command)) }
            options.show?(effect)
        case .signal(let event, let device, let step):
            if acts { bus?.emit(event, device: device, step: step, now: monotonicMicroseconds()) }
            options.show?(effect)
        case .toAgent(let action):
            if acts { bus?.act(action) }
            options.show?(effect)
        case .dropped(let action, let session, let first):
            let line = "\(printable(action.binding, limit: 64)): its \(action.kind) dropped: its user's session \(printable(SeatSession(id: session, user: 0).name, limit: 64)) is not in front"
            if first { logger.info("\(line) (said once until another session is)") } else { logger.debug("\(line)") }
            options.show?(effect)
        case .wantAgents:
            if acts { bus?.wantApp() }
        case .feedback(let frame, let agent):
            if acts { afterwards.append(.feedback(frame, agent: agent)) }
            options.show?(effect)
        case .write(let target, let events):
            if acts { write(events, to: target) }
            options.show?(effect)
        case .control(let change, _):
            if controlLines.take(now: monotonicMicroseconds()) {
                // The application in front and the windows change at every click of another window: the debug log's.
                switch change.kind {
                case .app, .windows: logger.debug("\(change)")
                default: logger.info("\(change)")
                }
                options.show?(effect)
            }
            if let property = change.kind.property { bus?.announce([property]) }
        case .ignored(let node, let reason):
            let name = panels[node]?.device?.description.name ?? node
            panels[node] = nil
            if reason == .twin { logger.debug("\(node): \(reason)") } else { logger.info("\(node): '\(name)' \(reason)") }
        case .isolate(let node):
            if acts { isolate(node) }
        case .rescan:
            rescanWanted = true
        case .letGo(let node, _):
            // One to be opened anew is, by the enumeration that ends every reload.
            if let device = panels.removeValue(forKey: node)?.device { loop.unwatch(device.fd) }
        case .announce(let properties, let rotated):
            bus?.announce(properties)
            if !rotated.isEmpty { bus?.announceRotation(of: rotated) }
        case .virtualDevices(let needing, let touchpad):
            makeOrRemoveVirtualDevices(for: needing, touchpad: touchpad)
        case .keepTouchLock(let locked):
            if acts, let why = KeptTouchLock.keep(locked) { logger.warning("keep_touch_lock: \(why)") }
        case .log(let level, let text):
            switch level {
            case .debug: logger.debug("\(text)")
            case .info: logger.info("\(text)")
            case .warning: logger.warning("\(text)")
            case .error: logger.error("\(text)")
            }
        }
    }

    /// The service's log says what fired, and at debug level why.
    /// What waits until a seat step's signals, keys and twin's events are out.
    enum Afterwards {
        /// A command: a spawn takes milliseconds.
        case run(CommandAction)
        case log(Step, of: String)
        /// An overlay update: after the step's command, which someone waits for.
        case feedback(FeedbackFrame, agent: String)
    }

    /// How long a live step's log lines wait, and how many steps' lines at most: formatted
    /// and written at once, they held the machine for as long from the receivers of the
    /// step's signal (in the VM, where the signal's floor runs beside gestured, that was
    /// half a millisecond of a lift's 4 ms to the listener). Nobody reads a log line 5 ms
    /// sooner.
    static let unhurriedMicroseconds: Int64 = 5000
    static let mostUnhurriedSteps = 256

    /// The commands and the log lines of a seat step, once what others wait for without
    /// a process to start (a signal, a key, the twin's events) has gone out: the commands
    /// at once, the log lines (live) once the loop has been idle a moment.
    func performAfterwards() {
        for deferred in afterwards {
            switch deferred {
            case .log(let step, let node):
                guard writesLog(step) else { continue }
                let name = seat.panel(node)?.name ?? node
                guard case .touchscreens = options.source else { log(step, of: name); continue }
                if unhurried.count >= Self.mostUnhurriedSteps { writeUnhurried() }
                unhurried.append((step, name))
                if unhurriedDue == nil { unhurriedDue = monotonicMicroseconds() + Self.unhurriedMicroseconds }
            case .run(let command):
                guard let output = runner.start(command, now: monotonicMicroseconds()) else { continue }
                watch(output, "\(command.binding)'s output") { [unowned self] in runner.readOutput(output, now: monotonicMicroseconds()) }
            case .feedback(let frame, let agent):
                bus?.feedback(frame, to: agent)
            }
        }
        afterwards.removeAll(keepingCapacity: true)
    }

    /// The log lines waiting, in order.
    func writeUnhurried() {
        for (step, name) in unhurried { log(step, of: name) }
        unhurried.removeAll(keepingCapacity: true)
        unhurriedDue = nil
    }

    /// Whether `log` writes anything for the step at the log's level.
    private func writesLog(_ step: Step) -> Bool {
        if !step.bugs.isEmpty { return true }
        guard options.mode == .service else { return false }
        if step.events.contains(where: { $0.phase != .changed }) { return true }
        guard logger.logLevel <= .debug else { return false }
        return step.underTouch != nil || step.wakes != nil || step.stillDark != nil || !step.transitions.isEmpty || !step.delivery.isEmpty
    }

    private func log(_ step: Step, of name: String) {
        for bug in step.bugs { logger.error("\(name): bug: \(bug)") }
        guard options.mode == .service else { return }
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

    private func write(_ events: [InputEvent], to target: VirtualDevice) {
        switch target {
        case .twin(let node):
            guard let twin = panels[node]?.twin else { return }
            do { try twin.write(events) } catch { logger.error("\(node): cannot write to its twin: \(error)") }
        case .keyboard, .pointer, .touchpad:
            // Made when the configuration was loaded, or said then why not.
            guard let virtual else { return }
            let device: VirtualDevices.Device = switch target {
            case .pointer: .pointer
            case .touchpad: .touchpad
            default: .keyboard
            }
            do { try virtual.write(events, to: device, now: monotonicMicroseconds()) } catch {
                logger.error("cannot write to gestured's virtual \(device): \(error)")
            }
        }
    }

    /// Grabs the panel and makes its twin; the seat reads it beside applications if that fails.
    private func isolate(_ node: String) {
        guard let panel = panels[node], let device = panel.device else { return }
        do {
            try device.grab()
            let twin = try device.makeTwin()
            panel.twin = twin
            logger.info("\(node): '\(device.description.name)' isolated: its twin is \(twin.node ?? "a uinput device")")
            do { try twin.recordAsTwin(of: node) } catch {
                if !saidTwinsUnrecorded {
                    saidTwinsUnrecorded = true
                    logger.warning("twins take no identity of their panels (calibration, output, seat): cannot record \(twin.node ?? "the twin") in \(TwinRecords.directory) (\(error)); the system service's runtime directory holds it. Said once")
                }
            }
        } catch {
            device.release()
            followUps.append(.isolationFailed(node: node, error: "\(error)", at: now))
        }
    }
}
