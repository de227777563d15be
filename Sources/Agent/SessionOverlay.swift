import Effects
import Logging
import Loop
import Pipeline
import SystemIO
import TouchCore

/// The overlay of the session agent's session, made at the first update gestured sends
/// (`overlay = true`): drawn by GNOME Shell's extension in a GNOME Wayland session
/// (passed on over the session bus: the Shell has no layer shell), by the layer-shell
/// helper in another Wayland session (`$WAYLAND_DISPLAY`), on the X display in an X11
/// one (`$DISPLAY` alone); elsewhere, or when that fails, said once and none is drawn.
final class SessionOverlay {
    private enum Backend {
        /// No update has come yet.
        case unmade
        case gnomeShell
        case layerShell(WaylandOverlay)
        case x11(X11Overlay)
        /// Said once: none is drawn.
        case none
    }

    private var backend = Backend.unmade
    private let runtime: Runtime
    private let relay: AgentRelay
    private let logger: Logger

    init(runtime: Runtime, relay: AgentRelay, logger: Logger) {
        self.runtime = runtime
        self.relay = relay
        self.logger = logger
    }

    var nextDeadline: Int64? {
        if case .x11(let overlay) = backend { overlay.nextDeadline } else { nil }
    }

    func process(now: Int64) {
        if case .x11(let overlay) = backend { overlay.process(now: now) }
    }

    func draw(_ frame: FeedbackFrame) {
        if case .unmade = backend { backend = make() }
        switch backend {
        case .gnomeShell: relay.feedback(frame, to: "org.gnome.Shell")
        case .layerShell(let overlay): overlay.draw(frame)
        case .x11(let overlay): overlay.draw(frame, now: monotonicMicroseconds())
        case .unmade, .none: break
        }
    }

    private func make() -> Backend {
        let wayland = Environment.value("WAYLAND_DISPLAY").map { !$0.isEmpty } ?? false
        let desktops = (Environment.value("XDG_CURRENT_DESKTOP") ?? "").split(separator: ":")
        do {
            if wayland, desktops.contains("GNOME") {
                logger.info("overlay: GNOME Shell draws it, through gestured's extension (enable it if it is not)")
                return .gnomeShell
            } else if wayland {
                let made = try WaylandOverlay()
                runtime.watch(made.output, "the overlay's helper") { [unowned self, unowned made] in
                    let (words, ended) = made.read()
                    guard ended else { return }
                    logger.warning("overlay: \(WaylandOverlay.helper) ended\(words.isEmpty ? "" : ": \(printable(words, limit: 512))"); none is drawn")
                    runtime.unwatch(made.output)
                    backend = .none
                }
                return .layerShell(made)
            } else if let display = Environment.value("DISPLAY"), !display.isEmpty {
                let made = try X11Overlay(display: display)
                watch(made)
                return .x11(made)
            }
            logger.warning("overlay: gestured sends its updates, but this session has no display the agent knows")
        } catch {
            logger.warning("overlay: \(error); none is drawn")
        }
        return .none
    }

    /// The X overlay's descriptor: the connecting thread's, then the X socket's.
    private func watch(_ overlay: X11Overlay) {
        let watched = overlay.fd
        runtime.watch(watched, "the X connection") { [unowned self, unowned overlay] in
            do { try overlay.readable() } catch {
                logger.warning("overlay: \(error); none is drawn")
                runtime.unwatch(overlay.fd)
                backend = .none
                return
            }
            if overlay.fd != watched {
                runtime.unwatch(watched)
                watch(overlay)
            }
        }
    }
}
