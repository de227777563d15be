import Input
import Pipeline

/// gestured's virtual keyboard and pointer in the daemon: made while the configuration
/// binds keys, clicks, scrolling or holds (the seat says which gestures; never for a
/// monitor), with the touchpad while a binding hands it gestures (made or removed alone,
/// the others kept), removed when nothing needs them. What they write is the seat's.
extension Daemon {
    func makeOrRemoveVirtualDevices(for needing: [String], touchpad: Bool) {
        guard !needing.isEmpty else {
            virtual = nil
            return
        }
        if let virtual {
            guard virtual.hasTouchpad != touchpad else { return }
            do {
                try virtual.setTouchpad(touchpad)
                logger.info(touchpad ? "virtual touchpad: \(virtual.touchpadNode ?? "made")" : "virtual touchpad removed: no gesture hands it fingers")
            } catch {
                logger.error("cannot make gestured's virtual touchpad (\(error)): it needs \(PanelPolicy.uinputAccess)")
            }
            return
        }
        do {
            let made = try VirtualDevices(touchpad: touchpad)
            virtual = made
            logger.info("virtual keyboard and pointer\(touchpad ? " and touchpad" : "") for \(needing.joined(separator: ", ")): \(made.nodes.joined(separator: ", "))")
        } catch {
            logger.error("cannot make gestured's virtual keyboard and pointer (\(error)): they need \(PanelPolicy.uinputAccess). These gestures cannot act: \(needing.joined(separator: ", ")); the rest work")
        }
    }

    /// The virtual touchpad's frames whose turn has come (`all`: the daemon stops).
    func writeDueTouchpadFrames(now: Int64, all: Bool = false) {
        guard let virtual, all || virtual.touchpadDue.map({ $0 <= now }) == true else { return }
        do { try virtual.writeDueTouchpadFrames(now: now, all: all) } catch {
            logger.error("cannot write to gestured's virtual touchpad: \(error)")
        }
    }
}
