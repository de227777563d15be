import Input
import Pipeline
import TouchCore

/// The switches that say a 2-in-1 is folded into a tablet (SW_TABLET_MODE): an ACPI or
/// embedded controller's, a detachable keyboard's. Each is read, never grabbed (the
/// desktop reads it too), and what it says is the seat's `tabletMode`: the position
/// when it is opened, then each change. With none, the machine counts as a laptop.
extension Daemon {
    /// Opens every tablet-mode switch present now that is not open yet.
    func openTabletSwitches() {
        do {
            for node in try Udev.tabletSwitchNodes() { addTabletSwitch(node) }
        } catch {
            logger.warning("udev: cannot list the tablet-mode switches: \(error)")
        }
    }

    func addTabletSwitch(_ node: String) {
        guard touchscreens.switches[node] == nil else { return }
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: node) { _ in }
        } catch .permissionDenied {
            // The user's own daemon: only the system service's user may read it (71-gestured-seat.rules).
            return logger.info("\(node): a tablet-mode switch this user may not read; when_tablet counts the machine a laptop")
        } catch {
            return logger.warning("\(node): a tablet-mode switch, cannot open: \(error); when_tablet counts the machine a laptop")
        }
        guard let position = device.switchState(SwitchCode.tabletMode) else { return }
        touchscreens.switches[node] = device
        runtime.watch(device.fd, node) { [unowned self] in readTabletSwitch(node) }
        logger.info("\(node): '\(printable(device.description.name))': the tablet-mode switch, \(position != 0 ? "a tablet" : "a laptop") now")
        step(.tabletMode(position != 0, why: "\(node)'s SW_TABLET_MODE", at: now))
    }

    func removeTabletSwitch(_ node: String) {
        guard let device = touchscreens.switches.removeValue(forKey: node) else { return }
        runtime.unwatch(device.fd)
        logger.info("\(node): the tablet-mode switch is gone; the posture stays as it last said")
    }

    /// Each change at its kernel time (after events were lost, libevdev's sync says the
    /// changes missed the same way).
    private func readTabletSwitch(_ node: String) {
        guard let device = touchscreens.switches[node] else { return }
        let why = "\(node)'s SW_TABLET_MODE"
        let end = device.read { event in
            guard event.type == EventType.sw, event.code == SwitchCode.tabletMode else { return }
            step(.tabletMode(event.value != 0, why: why, at: event.time))
        }
        if end == .removed { removeTabletSwitch(node) }
    }
}
