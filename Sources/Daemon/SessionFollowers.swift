import Effects
import Loop
import Pipeline
import SystemIO
import TouchCore

/// The live seat's other inputs, each followed on a bus: logind's lock, the running
/// service's state (for a monitor), and the accelerometer.
extension Daemon {
    /// logind's LockedHint: seat0's active session for the system service, the user's
    /// own session for the user service (on the session bus).
    func followTheLock() {
        let session: LogindWatcher.Session = (options.bus ?? config.daemon.bus) == .session ? .ownUser(uid: Users.effectiveID) : .seat
        let logind = LogindWatcher(session, logger: logger) { [unowned self] in now }
        runtime.follow(logind, "logind")
        // A user's own daemon reads no panel while another session is in front (`sessionInFront`).
        logind.onInput = { [unowned self] in step($0) }
        logind.start()
    }

    /// The application in front and where the windows are, from the desktop the daemon's
    /// environment names (the user service in a sway, i3, Hyprland, X11 or wlroots
    /// session; in KDE Plasma, the KWin script it loads says it on the bus); the system
    /// service hears the application on the bus (ReportApp, from the session agent) instead.
    func followTheDesktop() {
        DesktopFollower.followThisSession(logger: logger, watch: runtime.follow,
                                          onApp: { [unowned self] app, why in step(.appInFront(app, why: why, at: now)) },
                                          onWindows: { [unowned self] windows, why in step(.windows(windows, why: why, at: now)) })
    }

    /// monitor: the running service's mode, pause and lock, on the bus its configuration
    /// names, so that what it shows is what the service does.
    func followTheService() {
        let kind: BusService.Kind
        switch options.bus ?? config.daemon.bus {
        case .system: kind = .system
        case .session: kind = .session
        case .none: return
        }
        let follower = ServiceFollower(kind, logger: logger)
        runtime.follow(follower, "the service's properties")
        follower.onHeard = { [unowned self] heard in
            step(.followed(ServiceState(mode: heard.mode, paused: heard.paused, locked: heard.locked,
                                                    touchLocked: heard.touchLocked, rotation: heard.rotation), at: now))
        }
        follower.onFound = { [unowned self] in
            for node in touchscreens.open.keys { service?.readRotation(ofPanel: BusService.devicePath(node)) }
        }
        follower.onPanelRotation = { [unowned self] path, turn in
            guard let node = touchscreens.open.keys.first(where: { BusService.devicePath($0) == path }) else { return }
            step(.followed(ServiceState(panelRotation: (node, turn)), at: now))
        }
        service = follower
        follower.start()
    }

    /// iio-sensor-proxy's accelerometer, for `rotation = "auto"`.
    func followTheAccelerometer() {
        let sensor = SensorProxyWatcher(logger: logger)
        runtime.follow(sensor, "iio-sensor-proxy")
        sensor.onRotation = { [unowned self] turn, orientation in
            step(.displayRotated(turn, why: "iio-sensor-proxy: \(orientation)", at: now))
        }
        self.sensor = sensor
        sensor.start()
    }
}
