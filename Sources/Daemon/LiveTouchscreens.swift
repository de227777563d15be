import Effects
import Input
import Loop
import Pipeline
import SystemIO
import TouchCore

/// The loop's live source: udev's touchscreens, those present at start, then those
/// plugged in later (one unplugged mid-gesture cancels its touches and the daemon goes
/// on), each given to the seat, which decides how it is used; and the tablet-mode
/// switches (TabletSwitches.swift).
extension Daemon {
    func startLive(only node: String?) {
        touchscreens.onlyNode = node
        followTheLock()
        if options.mode == .monitor { followTheService() } else {
            followTheDesktop()
            // Said at the first twin, if it cannot be recorded.
            try? TwinRecords.prepare()
            // Before any panel is read: not a touch gets through a lock kept over the restart.
            if config.daemon.keepTouchLock, KeptTouchLock.kept {
                try? take(.request(.lockTouch(true), why: "kept through the restart (keep_touch_lock)", at: now))
            }
        }
        do {
            let udev = try Udev()
            touchscreens.udev = udev
            runtime.watch(udev.fd, "udev") { [unowned self] in hotplug() }
        } catch {
            logger.warning("udev: cannot follow hotplug (\(error)); only the touchscreens present now are used")
        }
        enumerate()
        openTabletSwitches()
    }

    /// Opens every touchscreen present now that is not open yet.
    func enumerate() {
        do {
            let nodes = try touchscreens.onlyNode.map { [$0] } ?? Udev.touchscreenNodes()
            for node in nodes where touchscreens.open[node] == nil { add(node) }
        } catch {
            logger.error("udev: cannot list touchscreens: \(error)")
        }
        sayWaitingIfNone()
    }

    /// udev's events taken at one wake-up: `udevadm trigger` in a loop must not keep the
    /// loop from the touches (the rest wait for the next wake-up; the monitor stays readable).
    static let udevEventsPerWake = 64

    private func hotplug() {
        var budget = Self.udevEventsPerWake
        var screensChanged = false
        defer { if screensChanged { touchscreens.screens.rescan() } }
        while budget > 0, let event = touchscreens.udev?.receive() {
            budget -= 1
            screensChanged = screensChanged || event.isScreen
            guard !event.node.isEmpty else { continue }
            switch event.action {
            case "add" where touchscreens.onlyNode.map { $0 == event.node } ?? event.isGestureSource: add(event.node)
            case "add" where event.isTabletSwitch: addTabletSwitch(event.node)
            case "change" where touchscreens.open[event.node] != nil:
                step(.calibrated(node: event.node, Udev.calibration(of: event.node), at: now))
            case "remove":
                removeTabletSwitch(event.node)
                touchscreens.unopened.remove(event.node)
                if touchscreens.open[event.node] != nil { step(.gone(node: event.node, why: "removed", at: now)) }
            default: break
            }
        }
        sayWaitingIfNone()
    }

    private func add(_ node: String) {
        guard touchscreens.open[node] == nil else { return }
        let device: EvdevDevice
        do {
            // A device sending garbage makes libevdev complain thousands of times a second.
            var allowance = Allowance(burst: 5, perSecond: 5.0 / 60, reportEvery: 60_000_000, now: monotonicMicroseconds())
            device = try EvdevDevice(path: node) { [unowned self] message in
                let now = monotonicMicroseconds()
                if let dropped = allowance.dueReport(now: now) {
                    logger.warning("\(node): … \(dropped) more libevdev message(s) not logged (at most 5 a minute)")
                }
                if allowance.take(now: now) { logger.warning("\(node): libevdev: \(message)") }
            }
        } catch .permissionDenied {
            touchscreens.unopened.insert(node)
            if options.mode == .monitor {
                return logger.error("\(node): permission denied. Run monitor as root (sudo) or as a member of the 'input' group")
            }
            return logger.error("\(node): permission denied. Run gestured as its systemd service (make install), as the user service at the seat (make install-user), or as a member of the 'input' group")
        } catch {
            touchscreens.unopened.insert(node)
            return logger.error("\(node): cannot open: \(error)")
        }
        touchscreens.unopened.remove(node)
        // Open while the seat decides: it may ask for the panel to be grabbed, or let it go.
        touchscreens.open[node] = OpenPanel(node: node, device: device)
        var description = device.description
        description.calibration = Udev.calibration(of: node)
        let facts = SeatDevice(node: node, description: description,
                               live: .init(kernelState: device.touchState, isTwin: device.isTwin, group: Udev.deviceGroup(of: node)))
        step(.appeared(facts, at: now))
        guard let panel = touchscreens.open[node], seat.panel(node) != nil else { return }
        runtime.watch(device.fd, node, first: true) { [unowned self] in read(panel) }
        if options.mode == .monitor { sayIfIsolatedElsewhere(node, device) }
        service?.readRotation(ofPanel: BusService.devicePath(node))
        touchscreens.saidWaiting = false
    }

    /// A monitor reads next to the service, but nothing reaches it from a panel that a
    /// running gestured isolates (grabs): it says so, and what to do.
    private func sayIfIsolatedElsewhere(_ node: String, _ device: EvdevDevice) {
        let phys = device.twinPhys
        guard let twin = (try? Udev.inputDevices())?.first(where: { $0.phys == phys }) else { return }
        logger.warning("\(node): a running gestured isolates it (grabbed; applications get its twin \(twin.node)): nothing reaches this monitor from it. To watch it, stop the service or set isolate = false for this panel; or read the service's log with log_level = \"debug\"")
    }

    private func read(_ panel: OpenPanel) {
        guard let device = panel.device else { return }
        let node = panel.node
        // The screens are read once a read, before the first event that may begin a
        // sequence, so that the seat knows whether it wakes a dark screen; a finger
        // joining a sequence under way cannot (it stays what it began as).
        var screensRead = !seat.config.daemon.wakeLatch
        switch device.read({ event in
            if !screensRead, Self.mayBeginATouch(event), seat.panel(node)?.pipeline.fingersDown == false {
                screensRead = true
                step(.screens(touchscreens.screens.read(), why: "the kernel's DRM connectors", at: event.time))
            }
            step(.event(node: node, event))
        }) {
        case .drained: break
        case .resynced: logger.warning("\(node): the kernel dropped events (SYN_DROPPED); resynced")
        case .removed: step(.gone(node: node, why: "gone", at: now))
        }
    }

    /// A finger (or a pen's tip) coming down: BTN_TOUCH pressed, or a slot's tracking id set.
    private static func mayBeginATouch(_ event: InputEvent) -> Bool {
        (event.type == EventType.key && event.code == KeyCode.btnTouch && event.value == 1)
            || (event.type == EventType.abs && event.code == AbsCode.mtTrackingID && event.value >= 0)
    }

    /// Says once that there is nothing to read, and whether touchscreens are there but
    /// could not be opened (then waiting is not the answer: the errors above are).
    private func sayWaitingIfNone() {
        guard touchscreens.open.isEmpty, !touchscreens.saidWaiting else { return }
        touchscreens.saidWaiting = true
        if touchscreens.unopened.isEmpty {
            logger.info("no touchscreen yet: waiting for one to appear")
        } else {
            logger.error("no touchscreen could be opened (\(touchscreens.unopened.sorted().joined(separator: ", ")): see above); waiting for one that can")
        }
    }
}
