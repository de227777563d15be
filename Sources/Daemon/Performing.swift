import Bindings
import Effects
import Input
import Loop
import Pipeline
import SystemIO
import TouchCore

/// What the seat decided, done: the daemon's only sink. A monitor performs no command,
/// signal or write (its seat asks for no grab); it shows and logs.
extension Daemon {
    /// What performing a step asks of the seat and the devices next, once it is done.
    struct AfterPerforming {
        /// Panels whose twin could not be made.
        var isolationsFailed: [SeatInput] = []
        var rescan = false
    }

    /// The seat's last step: shown in the order decided (`run --print`, `monitor`),
    /// performed in the seat's drain order, then what that asks of the seat next.
    func performSeatEffects() {
        guard !seat.effects.isEmpty else { return }
        if let show = options.show { for effect in seat.effects { show(effect) } }
        var after = AfterPerforming()
        for effect in seat.effects.inDrainOrder { perform(effect, &after) }
        for failed in after.isolationsFailed { step(failed) }
        if after.rescan, case .touchscreens = options.source { enumerate() }
    }

    private func perform(_ effect: SeatEffect, _ after: inout AfterPerforming) {
        let acts = options.mode == .service
        switch effect {
        case .step(let node, _, let step):
            guard seatLog.writes(step, at: logger.logLevel) else { return }
            let name = seat.panel(node)?.name ?? node
            guard case .touchscreens = options.source else { return seatLog.write(step, of: name, logger) }
            seatLog.keep(step, of: name, now: monotonicMicroseconds(), logger)
        case .run(let command):
            if acts { runtime.start(command) }
        case .signal(let event, let device, let step):
            if acts { bus?.emit(event, device: device, step: step, now: monotonicMicroseconds()) }
        case .toAgent(let action):
            if acts { bus?.act(action) }
        case .dropped(let action, let session, let first):
            let line = "\(printable(action.binding, limit: 64)): its \(action.kind) dropped: its user's session \(printable(SeatSession(id: session, user: 0).name, limit: 64)) is not in front"
            if first { logger.info("\(line) (said once until another session is)") } else { logger.debug("\(line)") }
        case .wantAgents:
            if acts { bus?.wantApp() }
        case .feedback(let frame, let agent):
            if acts { bus?.feedback(frame, to: agent) }
        case .progress(let update, let agent):
            if acts { bus?.progress(update, to: agent) }
        case .inspection(let frame, let inspector):
            if acts { bus?.inspection(frame, to: inspector) }
        case .write(let target, let events):
            if acts { write(events, to: target) }
        case .control(let change, _):
            seatLog.say(change, now: monotonicMicroseconds(), logger)
            if let property = change.kind.property { bus?.announce([property]) }
        case .ignored(let node, let reason):
            let name = touchscreens.open[node]?.device?.description.name ?? node
            touchscreens.open[node] = nil
            if reason == .twin { logger.debug("\(node): \(reason)") } else { logger.info("\(node): '\(name)' \(reason)") }
        case .isolate(let node):
            if acts, let error = isolate(node) { after.isolationsFailed.append(.isolationFailed(node: node, error: error, at: now)) }
        case .rescan:
            after.rescan = true
        case .letGo(let node, _):
            // One to be opened anew is, by the enumeration that ends every reload.
            if let device = touchscreens.open.removeValue(forKey: node)?.device { runtime.unwatch(device.fd) }
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

    private func write(_ events: [InputEvent], to target: VirtualDevice) {
        switch target {
        case .twin(let node):
            guard let twin = touchscreens.open[node]?.twin else { return }
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

    /// Grabs the panel and makes its twin; what went wrong, for the seat to read it
    /// beside applications instead.
    private func isolate(_ node: String) -> String? {
        guard let panel = touchscreens.open[node], let device = panel.device else { return nil }
        do {
            try device.grab()
            let twin = try device.makeTwin()
            panel.twin = twin
            logger.info("\(node): '\(device.description.name)' isolated: its twin is \(twin.node ?? "a uinput device")")
            do { try twin.recordAsTwin(of: node) } catch {
                if !touchscreens.saidTwinsUnrecorded {
                    touchscreens.saidTwinsUnrecorded = true
                    logger.warning("twins take no identity of their panels (calibration, output, seat): cannot record \(twin.node ?? "the twin") in \(TwinRecords.directory) (\(error)); the system service's runtime directory holds it. Said once")
                }
            }
            return nil
        } catch {
            device.release()
            return "\(error)"
        }
    }
}
