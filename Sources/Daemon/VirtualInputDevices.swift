import Input
import Pipeline

/// gestured's virtual keyboard and pointer in the daemon: made while the configuration
/// binds keys, clicks or scrolling (the seat says which gestures; never for a monitor),
/// removed when it no longer does. What they write is the seat's.
extension Daemon {
    func makeOrRemoveVirtualDevices(for needing: [String]) {
        guard !needing.isEmpty else {
            virtual = nil
            return
        }
        guard virtual == nil else { return }
        do {
            let made = try VirtualDevices()
            virtual = made
            logger.info("virtual keyboard and pointer for \(needing.joined(separator: ", ")): \(made.nodes.joined(separator: ", "))")
        } catch {
            logger.error("cannot make gestured's virtual keyboard and pointer (\(error)): they need \(PanelPolicy.uinputAccess). These gestures cannot act: \(needing.joined(separator: ", ")); the rest work")
        }
    }
}
