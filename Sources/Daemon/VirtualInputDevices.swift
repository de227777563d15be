import Bindings
import Config
import Input
import SystemPackage

/// gestured's virtual keyboard and pointer in the daemon: made while the configuration
/// binds keys, clicks or scrolling (never for a monitor), removed when it no longer does.
extension Daemon {
    func makeOrRemoveVirtualDevices(for config: Configuration) {
        let needing = options.mode == .service ? config.bindings.filter(\.needsVirtualDevices).map(\.gesture) : []
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
            logger.error("cannot make gestured's virtual keyboard and pointer (\(error)): they need write access to /dev/uinput, as isolation does (the system service has it; `make install-isolation` for a user). These gestures cannot act: \(needing.joined(separator: ", ")); the rest work")
        }
    }

    /// Keys, a click or a wheel turn, when the devices could be made (said when loaded).
    func virtualInput(_ binding: String, _ write: (VirtualDevices) throws(Errno) -> Void) {
        guard let virtual else { return }
        do { try write(virtual) } catch { logger.error("\(binding): cannot write to the virtual keyboard or pointer: \(error)") }
    }
}
