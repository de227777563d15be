import Config
import TouchCore

/// The daemon's device policy as a pure decision: facts about a device, the
/// configuration and the mode in, what to do with it out, with its reason.
public enum PanelPolicy {
    /// How a device is used under a configuration. Protocol A panels keep no slot state to
    /// feed a twin by difference, so they are not isolated.
    public static func use(_ device: DeviceDescription, isTwin: Bool, config: Configuration, mode: ReadingMode) -> PanelUse {
        if isTwin { return .ignored(.twin) }
        if config.rule(for: device)?.ignore == true { return .ignored(.rule) }
        guard let touchProtocol = device.touchProtocol else { return .ignored(.noPositionAxes) }
        switch mode {
        case .monitor:
            return .read(notIsolatedBecause: nil)
        case .service:
            guard config.asksToIsolate(device) else { return .read(notIsolatedBecause: nil) }
            // A twin carries touches, not a pen's hover, pressure and tilt: pens stay the compositor's.
            if device.tool == .pen { return .read(notIsolatedBecause: "a pen is read beside the compositor, never isolated") }
            switch touchProtocol {
            case .contactReports: return .read(notIsolatedBecause: "a protocol A panel (no slots) cannot be isolated")
            case .slotted, .singleTouch: return .isolated
            }
        }
    }

    /// Isolation was decided and its twin could not be made: the panel is read without it.
    public static func twinFailed(_ error: String) -> PanelUse {
        .read(notIsolatedBecause: "cannot isolate it (\(error)): it needs \(uinputAccess)")
    }

    /// What isolation and gestured's keyboard and pointer need, and how each way of
    /// running gestured gets it (docs/guide.md, "Isolation").
    public static let uinputAccess = "write access to /dev/uinput: for the system service, install the package gestured-uinput "
        + "(from source: make install-isolation); for a user's own service, that user must be given it"

    /// A panel open under `old` meets `new`. What changes is what was decided under each,
    /// not what was had: a panel whose twin could not be made is kept as it is on a reload
    /// that leaves its isolation alone (reopening would fail the same way, and cancel the
    /// touches in flight each time), and a monitor never reopens for isolation.
    public static func reload(_ device: DeviceDescription, from old: Configuration, to new: Configuration,
                              mode: ReadingMode) -> PanelReload {
        let before = use(device, isTwin: false, config: old, mode: mode)
        let after = use(device, isTwin: false, config: new, mode: mode)
        switch (before, after) {
        case (_, .ignored(let reason)):
            return .letGo(because: "\(reason) now")
        case (.isolated, .isolated), (.read, .read):
            return .keep
        case (.read, .isolated):
            return .reopen(because: "to be isolated now")
        case (.isolated, .read):
            return .reopen(because: "no longer isolated")
        case (.ignored, _):
            return .reopen(because: "read under the new configuration")
        }
    }
}
