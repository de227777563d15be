import Config
import TouchCore

/// What the daemon reads for: the service acts on touches and isolates the panels the
/// configuration says to; a monitor reads beside it, grabbing and performing nothing.
public enum ReadingMode: Sendable {
    case service
    case monitor
}

/// How the daemon uses one input device: the one answer to "is this panel read, and is
/// it isolated?", which the daemon performs (open, grab, make the twin, let go) and
/// `devices` reports.
public enum PanelUse: Equatable, Sendable {
    /// Not read.
    case ignored(IgnoredBecause)
    /// Read; its touches reach applications as well. `notIsolatedBecause`: isolation was
    /// asked for and cannot be had, to say so.
    case read(notIsolatedBecause: String?)
    /// Read and grabbed: applications get its uinput twin, with what no gesture takes.
    case isolated

    public enum IgnoredBecause: Equatable, Sendable, CustomStringConvertible {
        /// Another gestured's (or this one's) twin: reading it would read our own output.
        case twin
        /// A `[[device]]` rule says `ignore = true`.
        case rule
        case noPositionAxes

        public var description: String {
            switch self {
            case .twin: "a gestured twin, not a touchscreen to read"
            case .rule: "ignored by a [[device]] rule"
            case .noPositionAxes: "no position axes, not a touchscreen"
            }
        }
    }
}

/// What a reload does to a panel the daemon has open.
public enum PanelReload: Equatable, Sendable {
    /// Stays open: the new recognizers and bindings take its next touch sequence.
    case keep
    /// Closed and opened anew (grabbed or let go, its twin made or removed): its touches
    /// in flight are cancelled.
    case reopen(because: String)
    /// Closed: the new configuration does not read it.
    case letGo(because: String)
}

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
            switch touchProtocol {
            case .contactReports: return .read(notIsolatedBecause: "a protocol A panel (no slots) cannot be isolated")
            case .slotted, .singleTouch: return .isolated
            }
        }
    }

    /// Isolation was decided and its twin could not be made: the panel is read without it.
    public static func twinFailed(_ error: String) -> PanelUse {
        .read(notIsolatedBecause: "cannot isolate it (\(error)): it needs write access to /dev/uinput (the system service has it)")
    }

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
            return .letGo(because: reason.description)
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
