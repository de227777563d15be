import Bindings
import Config
import TouchCore

/// Panels coming and going, and what a new configuration does to each: `PanelPolicy`'s
/// decisions, made for the whole seat.
extension Seat {
    func appear(_ device: SeatDevice, at time: Timestamp) {
        guard panel(device.node) == nil else { return }
        let node = device.node
        guard presence == .inFront else { return effects.append(.ignored(node: node, .anotherSession)) }
        let isolated: Bool
        switch PanelPolicy.use(device.description, isTwin: device.live?.isTwin ?? false, config: config, mode: mode) {
        case .ignored(let reason):
            return effects.append(.ignored(node: node, reason))
        case .read(let notIsolatedBecause):
            if let why = notIsolatedBecause { effects.append(.log(.warning, "\(node): \(why); its touches reach applications as well")) }
            isolated = false
        case .isolated:
            isolated = true
        }
        guard let pipeline = makePipeline(device, isolated: isolated) else { return effects.append(.ignored(node: node, .noPositionAxes)) }
        add(SeatPanel(device, pipeline: pipeline))
        let size = pipeline.geometry
        effects.append(.log(.info, "\(node): '\(pipeline.device.name)', \(fixed(size.size.width, decimals: 0))×\(fixed(size.size.height, decimals: 0)) mm\(size.knownSize == nil ? " (assumed)" : "")"))
        if isolated { effects.append(.isolate(node: node)) }
        effects.append(.announce([.devices], rotatedPanels: []))
    }

    func makePipeline(_ device: SeatDevice, isolated: Bool) -> TouchscreenPipeline? {
        guard let pipeline = try? TouchscreenPipeline(device.description, config: config, kernelState: device.live?.kernelState,
                                                      isolated: isolated, gate: control.gate, displayRotation: displayRotation)
        else { return nil }
        pipeline.explaining = pipelinesExplain
        pipeline.setScreens(screens)
        return pipeline
    }

    /// Its twin could not be made: read beside applications, as if never isolated.
    func isolationFailed(_ node: String, _ error: String, at time: Timestamp) {
        guard let panel = panel(node), panel.isolated, let pipeline = makePipeline(panel.device, isolated: false) else { return }
        let replacement = SeatPanel(panel.device, pipeline: pipeline)
        replacement.palm = panel.palm
        drop(panel)
        add(replacement)
        if replacement.palm.silenced { feed(.silence(true, at: time), to: replacement) }
        if case .read(let why?) = PanelPolicy.twinFailed(error) {
            effects.append(.log(.error, "\(node): \(why); its touches reach applications as well"))
        }
        effects.append(.announce([.devices], rotatedPanels: []))
    }

    /// A panel's calibration changed (`gestured calibrate` wrote its rule, or anyone
    /// did): a live one is opened anew, so that gestured's positions take the new matrix
    /// and an isolated panel's twin is made again, the one moment a compositor's libinput
    /// reads a device's calibration; a recording, which cannot be opened again, appears
    /// again with the matrix. A touch in flight is cancelled, as at any reopening.
    func recalibrate(_ node: String, _ matrix: CalibrationMatrix?, at time: Timestamp) {
        guard let panel = panel(node), panel.device.description.calibration != matrix else { return }
        let why = "calibrated anew (\(matrix.map { "LIBINPUT_CALIBRATION_MATRIX \($0)" } ?? "no calibration"))"
        guard panel.device.live == nil else {
            remove(panel, why: why + ": opened again", reopen: true, at: time)
            return effects.append(.rescan)
        }
        var device = panel.device
        device.description.calibration = matrix
        remove(panel, why: why + ": it appears again", at: time)
        appear(device, at: time)
    }

    /// Lets a panel go: its touches and gestures under way are cancelled. `reopen`: to
    /// be opened anew, as the new configuration reads it.
    func remove(_ panel: SeatPanel, why: String, reopen: Bool = false, at time: Timestamp) {
        feed(.cancel(time), to: panel)
        release(panel)
        feedback.forget(panel.node)
        inspection.forget(panel.node)
        for update in progress.forget(panel.node) { say(update) }
        if panel.pipeline.device.tool == .pen { penMoved(false, on: panel, at: time) }
        drop(panel)
        effects.append(.log(.info, "\(panel.node): '\(panel.name)' \(why)"))
        effects.append(.letGo(node: panel.node, reopen: reopen))
        effects.append(.announce([.devices], rotatedPanels: []))
    }

    /// Another session came in front of the seat: every live panel is let go, a
    /// recording's touches under way are cancelled (its events are not taken meanwhile).
    func leavePanels(at time: Timestamp) {
        for panel in panels {
            if panel.device.live == nil {
                if panel.pipeline.fingersDown { feed(.cancel(time), to: panel) }
            } else {
                remove(panel, why: "let go while another session is in front", at: time)
            }
        }
    }

    /// The new modes and gestures; each panel takes them at its next touch sequence, is
    /// let go when the configuration ignores it now, or is let go to be opened anew when
    /// its isolation changes (a recording has nothing to grab: it keeps going).
    func reload(_ next: Configuration, at time: Timestamp) {
        let old = config
        config = next
        changed(control.reconfigure(next, at: time).map { [$0] } ?? [], at: time)
        // Kept from now on, or no longer: the first configuration, at start, keeps what was.
        if old.daemon.keepTouchLock, !next.daemon.keepTouchLock { effects.append(.keepTouchLock(false)) }
        if !old.daemon.keepTouchLock, next.daemon.keepTouchLock, control.gate.touchLocked { effects.append(.keepTouchLock(true)) }
        for panel in panels {
            let decision = panel.device.live == nil ? .keep : PanelPolicy.reload(panel.pipeline.device, from: old, to: next, mode: mode)
            switch decision {
            case .keep:
                do { try panel.pipeline.reload(next) } catch {
                    remove(panel, why: "ignored by a [[device]] rule now", at: time)
                    continue
                }
                if panel.pipeline.reloadPending {
                    effects.append(.log(.info, "reload: \(panel.node) takes it after the touch sequence in flight"))
                }
            case .reopen(let why):
                remove(panel, why: why, reopen: true, at: time)
            case .letGo(let why):
                remove(panel, why: why, at: time)
            }
        }
        effects.append(.announce([.modes, .gestures], rotatedPanels: []))
        var needing = next.bindings.filter(\.needsVirtualDevices).map(\.gesture)
        if next.wakesWithKeyboard { needing.append("wake_latch") }
        // Another session's user's too: their keyboard is there when their session is in front again.
        needing += sessions.neededByOthers.filter { !needing.contains($0) }
        let touchpad = next.bindings.contains(where: \.touchpad) || sessions.othersNeedTouchpad
        effects.append(.virtualDevices(needing: mode == .service ? needing : [], touchpad: mode == .service && touchpad))
    }
}
