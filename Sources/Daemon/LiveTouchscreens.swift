import Effects
import Input
import Pipeline
import SystemIO
import TouchCore

/// The loop's live source: udev's touchscreens, those present at start, then those
/// plugged in later (one unplugged mid-gesture cancels its touches and the daemon goes
/// on), each used as `PanelPolicy` decides.
extension Daemon {
    func startLive(only node: String?) {
        onlyNode = node
        followTheLock()
        if options.mode == .monitor { followTheService() }
        do {
            let udev = try Udev()
            self.udev = udev
            watch(udev.fd, "udev") { [unowned self] in hotplug() }
        } catch {
            logger.warning("udev: cannot follow hotplug (\(error)); only the touchscreens present now are used")
        }
        enumerate()
    }

    /// logind's LockedHint: seat0's active session for the system service, the user's
    /// own session for the user service (on the session bus).
    private func followTheLock() {
        let session: LogindWatcher.Session = (options.bus ?? config.daemon.bus) == .session ? .ownUser(uid: Users.effectiveID) : .seat
        let logind = LogindWatcher(session, logger: logger)
        logind.onWatchChange = { [unowned self] old, new in
            rewatch(old, new, "logind") { [unowned self] in self.logind?.process() }
        }
        logind.onChange = { [unowned self] locked, why in
            controlChanged(control.setLocked(locked, why: why).map { [$0] } ?? [])
        }
        self.logind = logind
        logind.start()
    }

    /// monitor: the running service's mode, pause and lock, on the bus its configuration
    /// names, so that what it shows is what the service does.
    private func followTheService() {
        let kind: BusService.Kind
        switch options.bus ?? config.daemon.bus {
        case .system: kind = .system
        case .session: kind = .session
        case .none: return
        }
        let follower = ServiceFollower(kind, logger: logger)
        follower.onWatchChange = { [unowned self] old, new in
            rewatch(old, new, "the service's properties") { [unowned self] in service?.process() }
        }
        follower.onHeard = { [unowned self] heard in
            controlChanged(control.follow(mode: heard.mode, paused: heard.paused, locked: heard.locked, why: "the service"))
            if let turn = heard.rotation { displayRotated(turn, why: "the service") }
        }
        follower.onFound = { [unowned self] in
            for node in touchscreens.keys { service?.readRotation(ofPanel: BusService.devicePath(node)) }
        }
        follower.onPanelRotation = { [unowned self] path, turn in
            guard let screen = touchscreens.values.first(where: { BusService.devicePath($0.node) == path }) else { return }
            panelRotated(screen, turn, why: "the service, for this panel")
        }
        service = follower
        follower.start()
    }

    /// Opens every touchscreen present now that is not open yet.
    func enumerate() {
        do {
            let nodes = try onlyNode.map { [$0] } ?? Udev.touchscreenNodes()
            for node in nodes where touchscreens[node] == nil { add(node) }
        } catch {
            logger.error("udev: cannot list touchscreens: \(error)")
        }
        sayWaitingIfNone()
    }

    private func hotplug() {
        while let event = udev?.receive() {
            guard !event.node.isEmpty else { continue }
            switch event.action {
            case "add" where onlyNode.map { $0 == event.node } ?? event.isGestureSource: add(event.node)
            case "remove":
                unopened.remove(event.node)
                if let screen = touchscreens[event.node] { remove(screen, why: "removed") }
            default: break
            }
        }
        sayWaitingIfNone()
    }

    private func add(_ node: String) {
        guard touchscreens[node] == nil else { return }
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
            unopened.insert(node)
            if options.mode == .monitor {
                return logger.error("\(node): permission denied. Run monitor as root (sudo) or as a member of the 'input' group")
            }
            return logger.error("\(node): permission denied. Run gestured as its systemd service (make install), as the user service at the seat (make install-user), or as a member of the 'input' group")
        } catch {
            unopened.insert(node)
            return logger.error("\(node): cannot open: \(error)")
        }
        unopened.remove(node)
        var twin: UinputDevice?
        switch PanelPolicy.use(device.description, isTwin: device.isTwin, config: config, mode: options.mode) {
        case .ignored(.twin):
            return logger.debug("\(node): \(PanelUse.IgnoredBecause.twin)")
        case .ignored(let reason):
            return logger.info("\(node): '\(device.description.name)' \(reason)")
        case .read(let notIsolatedBecause):
            if let why = notIsolatedBecause { logger.warning("\(node): \(why); its touches reach applications as well") }
            if options.mode == .monitor { sayIfIsolatedElsewhere(node, device) }
        case .isolated:
            do {
                try device.grab()
                twin = try device.makeTwin()
            } catch {
                device.release()
                if case .read(let why?) = PanelPolicy.twinFailed("\(error)") {
                    logger.error("\(node): \(why); its touches reach applications as well")
                }
            }
        }
        let pipeline: TouchscreenPipeline
        do {
            pipeline = try TouchscreenPipeline(device.description, config: config, kernelState: device.touchState, isolated: twin != nil,
                                               gate: control.gate, displayRotation: displayRotation)
        } catch {
            return logger.error("\(node): '\(device.description.name)' cannot be read: \(error)")
        }
        pipeline.explaining = explaining
        let screen = Touchscreen(node: node, pipeline: pipeline, device: device)
        screen.twin = twin
        screen.group = Udev.deviceGroup(of: node)
        watch(device.fd, node, first: true) { [unowned self] in read(screen) }
        touchscreens[node] = screen
        service?.readRotation(ofPanel: BusService.devicePath(node))
        saidWaiting = false
        let geometry = pipeline.geometry
        logger.info("\(node): '\(screen.name)', \(fixed(geometry.size.width, decimals: 0))×\(fixed(geometry.size.height, decimals: 0)) mm\(geometry.knownSize == nil ? " (assumed)" : "")\(twin.map { ", isolated: its twin is \($0.node ?? "a uinput device")" } ?? "")")
    }

    /// A monitor reads next to the service, but nothing reaches it from a panel that a
    /// running gestured isolates (grabs): it says so, and what to do.
    private func sayIfIsolatedElsewhere(_ node: String, _ device: EvdevDevice) {
        let phys = device.twinPhys
        guard let twin = (try? Udev.inputDevices())?.first(where: { $0.phys == phys }) else { return }
        logger.warning("\(node): a running gestured isolates it (grabbed; applications get its twin \(twin.node)): nothing reaches this monitor from it. To watch it, stop the service or set isolate = false for this panel; or read the service's log with log_level = \"debug\"")
    }

    private func read(_ screen: Touchscreen) {
        guard let device = screen.device else { return }
        switch device.read({ feed(.event($0), to: screen) }) {
        case .drained: break
        case .resynced: logger.warning("\(screen.node): the kernel dropped events (SYN_DROPPED); resynced")
        case .removed: remove(screen, why: "gone")
        }
    }

    /// Lets a touchscreen go: its touches and gestures under way are cancelled.
    func remove(_ screen: Touchscreen, why: String) {
        feed(.cancel(screen.deviceTime(monotonicMicroseconds())), to: screen)
        if let device = screen.device { loop.unwatch(device.fd) }
        if screen === replayScreen { replay = nil }
        touchscreens[screen.node] = nil
        logger.info("\(screen.node): '\(screen.name)' \(why)")
    }

    /// Says once that there is nothing to read, and whether touchscreens are there but
    /// could not be opened (then waiting is not the answer: the errors above are).
    private func sayWaitingIfNone() {
        guard touchscreens.isEmpty, !saidWaiting else { return }
        saidWaiting = true
        if unopened.isEmpty {
            logger.info("no touchscreen yet: waiting for one to appear")
        } else {
            logger.error("no touchscreen could be opened (\(unopened.sorted().joined(separator: ", ")): see above); waiting for one that can")
        }
    }
}
