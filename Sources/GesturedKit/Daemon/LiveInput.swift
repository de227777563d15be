#if canImport(Glibc)
import Glibc
#endif
import SystemPackage
import TouchCore

/// Touchscreens read live: those udev knows at start, then the ones plugged in later;
/// one that disappears mid-gesture cancels its touches and the daemon goes on.
final class LiveInput {
    private unowned let daemon: Daemon
    private var udev: Udev?
    private var open: [String: (device: EvdevDevice, screen: Touchscreen)] = [:]
    private var saidWaiting = false

    init(daemon: Daemon) {
        self.daemon = daemon
        do {
            let udev = try Udev()
            self.udev = udev
            try daemon.loop.watch(udev.fd) { [unowned self] in hotplug() }
        } catch {
            daemon.logger.warning("udev: cannot follow hotplug (\(error)); only the touchscreens present now are used")
        }
    }

    /// Opens every touchscreen present now.
    func enumerate() {
        for node in udev?.touchscreens() ?? [] { add(node) }
        sayWaitingIfNone()
    }

    private func hotplug() {
        while let event = udev?.receive() {
            guard !event.node.isEmpty else { continue }
            switch event.action {
            case "add" where event.isTouchscreen: add(event.node)
            case "remove": remove(event.node, why: "removed")
            default: break
            }
        }
        sayWaitingIfNone()
    }

    private func add(_ node: String) {
        guard open[node] == nil else { return }
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: node)
        } catch .permissionDenied {
            return daemon.logger.error("\(node): permission denied. Run gestured as its systemd service, add its user to the 'input' group, or install udev/70-gestured.rules")
        } catch {
            return daemon.logger.error("\(node): cannot open: \(error)")
        }
        let screen: Touchscreen
        do {
            screen = try Touchscreen(description: device.description, config: daemon.config)
        } catch .ignored {
            return daemon.logger.info("\(node): '\(device.description.name)' ignored by a [[device]] rule")
        } catch {
            return daemon.logger.info("\(node): '\(device.description.name)' has no position axes, not a touchscreen")
        }
        do {
            try daemon.loop.watch(device.fd) { [unowned self] in read(node) }
        } catch {
            return daemon.logger.error("\(node): cannot watch: \(error)")
        }
        open[node] = (device, screen)
        daemon.add(screen)
        saidWaiting = false
        let size = screen.pipeline.decoder.geometry.size
        daemon.logger.info("\(node): '\(device.description.name)', \(fixed(size.width, decimals: 0))×\(fixed(size.height, decimals: 0)) mm\(screen.pipeline.decoder.geometry.knownSize == nil ? " (assumed)" : "")")
    }

    private func read(_ node: String) {
        guard let (device, screen) = open[node] else { return }
        switch device.read({ screen.feed($0) }) {
        case .drained: break
        case .resynced: daemon.logger.warning("\(node): the kernel dropped events (SYN_DROPPED); resynced")
        case .removed: remove(node, why: "gone")
        }
    }

    private func remove(_ node: String, why: String) {
        guard let (device, screen) = open.removeValue(forKey: node) else { return }
        screen.cancelTouches(at: monotonicMicroseconds())
        daemon.loop.unwatch(device.fd)
        daemon.remove(screen)
        daemon.logger.info("\(node): '\(device.description.name)' \(why)")
    }

    private func sayWaitingIfNone() {
        guard open.isEmpty, !saidWaiting else { return }
        saidWaiting = true
        daemon.logger.info("no touchscreen yet: waiting for one to appear")
    }
}
