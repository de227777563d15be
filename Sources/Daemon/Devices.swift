import Input
import Pipeline
import SystemIO
import TouchCore

/// Where the daemon's touchscreens come from: udev's (those present at start, then
/// those plugged in later; one unplugged mid-gesture cancels its touches and the daemon
/// goes on), or a recording standing in for one.
extension Daemon {
    func startLive() {
        do {
            let udev = try Udev()
            self.udev = udev
            watch(udev.fd, "udev") { [unowned self] in hotplug() }
        } catch {
            logger.warning("udev: cannot follow hotplug (\(error)); only the touchscreens present now are used")
        }
        enumerate()
    }

    /// Opens every touchscreen present now that is not open yet.
    func enumerate() {
        do {
            let nodes = try options.onlyNode.map { [$0] } ?? Udev.touchscreenNodes()
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
            case "add" where options.onlyNode.map { $0 == event.node } ?? event.isTouchscreen: add(event.node)
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
            var limit = RateLimit(burst: 5, interval: 60_000_000)
            device = try EvdevDevice(path: node) { [unowned self] message in
                switch limit.admit(now: monotonicMicroseconds()) {
                case .pass: logger.warning("\(node): libevdev: \(message)")
                case .lastBeforeQuiet: logger.warning("\(node): libevdev: \(message) (more in the next minute are not logged)")
                case .quiet: break
                }
            }
        } catch .permissionDenied {
            unopened.insert(node)
            if options.watch != nil {
                return logger.error("\(node): permission denied. Run monitor as root (sudo) or as a member of the 'input' group")
            }
            return logger.error("\(node): permission denied. Run gestured as its systemd service (make install), as the user service at the seat (make install-user), or as a member of the 'input' group")
        } catch {
            unopened.insert(node)
            return logger.error("\(node): cannot open: \(error)")
        }
        unopened.remove(node)
        if device.isTwin { return logger.debug("\(node): a gestured twin, not a touchscreen to read") }
        if options.watch != nil { sayIfIsolatedElsewhere(node, device) }
        guard var pipeline = makePipeline(device.description, node, kernelState: device.touchState,
                                          isolate: options.watch != nil ? false : nil) else { return }
        var twin: UinputTwin?
        if pipeline.isolation != nil {
            do {
                try device.grab()
                twin = try device.makeTwin()
            } catch {
                device.release()
                logger.error("\(node): cannot isolate it (\(error)): it needs write access to /dev/uinput (the system service has it); its touches reach applications as well")
                guard let plain = makePipeline(device.description, node, kernelState: device.touchState, isolate: false) else { return }
                pipeline = plain
            }
        } else if options.watch == nil, TouchscreenPipeline.cannotIsolate(device.description, config: config) {
            logger.warning("\(node): a protocol A panel (no slots) cannot be isolated; its touches reach applications as well")
        }
        let screen = Touchscreen(node: node, pipeline: pipeline, device: device)
        screen.twin = twin
        watch(device.fd, node) { [unowned self] in read(screen) }
        touchscreens[node] = screen
        saidWaiting = false
        let geometry = pipeline.geometry
        logger.info("\(node): '\(screen.name)', \(fixed(geometry.size.width, decimals: 0))×\(fixed(geometry.size.height, decimals: 0)) mm\(geometry.knownSize == nil ? " (assumed)" : "")\(twin.map { ", isolated: its twin is \($0.node ?? "a uinput device")" } ?? "")")
    }

    private func makePipeline(_ description: DeviceDescription, _ node: String,
                              kernelState: KernelTouchState? = nil, isolate: Bool? = nil) -> TouchscreenPipeline? {
        do {
            let pipeline = try TouchscreenPipeline(description, config: config, kernelState: kernelState, isolate: isolate)
            pipeline.explaining = explaining
            return pipeline
        } catch .ignored {
            logger.info("\(node): '\(description.name)' ignored by a [[device]] rule")
        } catch {
            logger.info("\(node): '\(description.name)' has no position axes, not a touchscreen")
        }
        return nil
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
        touchscreens[screen.node] = nil
        if screen.node == options.replayPath { replay = nil }
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

    // MARK: A recording standing in for a device

    /// The touchscreen a replayed recording stands in for.
    var replayScreen: Touchscreen? { options.replayPath.flatMap { touchscreens[$0] } }

    func startReplay(_ path: String) throws {
        let recording = try Recording.load(path)
        guard let pipeline = makePipeline(recording.description, path) else {
            throw FileError(path: path, message: "nothing to replay: the configuration does not take this device")
        }
        touchscreens[path] = Touchscreen(node: path, pipeline: pipeline, device: nil,
                                         origin: monotonicMicroseconds(), speed: options.speed)
        replay = RecordingSource(recording, rounds: options.rounds)
        logger.info("replaying \(path) as '\(recording.description.name)' at \(options.speed)× speed\(options.rounds > 1 ? ", \(options.rounds) times" : "")")
    }

    static let replayBatch = 256

    /// Feeds the replay's events that are due, at most `replayBatch` a wake-up: a replay
    /// the daemon cannot keep up with still leaves the loop room for signals (SIGCHLD
    /// reaps) and commands' output. At its end, the touches still down are cancelled.
    /// True when events are still due: the replay is behind, and its touchscreen's
    /// deadlines are left to its next events, which run them in order.
    @discardableResult
    func feedReplay(now: Int64) -> Bool {
        guard var source = replay, let screen = replayScreen else { return false }
        let wasFinished = source.isFinished
        let time = screen.deviceTime(now)
        var budget = Self.replayBatch
        while budget > 0, let event = source.nextDue(by: time) {
            feed(.event(event), to: screen)
            budget -= 1
        }
        replay = source
        if source.isFinished, !wasFinished { feed(.cancel(screen.deviceTime(now)), to: screen) }
        return source.nextTime.map { $0 <= time } ?? false
    }
}
