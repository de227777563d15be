import Effects
import Pipeline
import SystemIO
import TouchCore

/// What turns or silences a touchscreen from outside its own events: the display's
/// rotation (iio-sensor-proxy, or the bus) and the pen paired with it.
extension Daemon {
    /// The display turned: every touchscreen measures its next sequence so (those whose
    /// rotation is auto or external).
    func displayRotated(_ turn: QuarterTurn, why: String) {
        guard turn != displayRotation else { return }
        displayRotation = turn
        var turned: [String] = []
        for screen in touchscreens.values {
            let before = screen.pipeline.rotation
            screen.pipeline.setDisplayRotation(turn)
            if screen.pipeline.rotation != before { turned.append(screen.node) }
        }
        controlChanged([ControlChange(kind: .rotated(turn), reason: why)])
        bus?.announceRotation(of: turned)
    }

    /// One panel turned by its own object on the bus (one whose rotation is auto or
    /// external), until the display's rotation changes again.
    func panelRotated(_ screen: Touchscreen, _ turn: QuarterTurn, why: String) {
        guard screen.pipeline.rotationSetting.followsDisplay, screen.pipeline.rotation != turn else { return }
        screen.pipeline.setDisplayRotation(turn)
        controlChanged([ControlChange(kind: .panelRotated(device: screen.name, turn), reason: why)])
        bus?.announceRotation(of: [screen.node])
    }

    /// iio-sensor-proxy's accelerometer, for `rotation = "auto"`.
    func followTheAccelerometer() {
        let sensor = SensorProxyWatcher(logger: logger)
        sensor.onWatchChange = { [unowned self] old, new in
            rewatch(old, new, "iio-sensor-proxy") { [unowned self] in self.sensor?.process() }
        }
        sensor.onRotation = { [unowned self] turn, orientation in
            displayRotated(turn, why: "iio-sensor-proxy: \(orientation)")
        }
        self.sensor = sensor
        sensor.start()
    }

    /// A pen came near or left: its touchscreens (same group) silence the palm.
    func penMoved(_ near: Bool, on pen: Touchscreen) {
        guard let group = pen.group else { return }
        for screen in touchscreens.values where screen !== pen && screen.group == group && screen.pipeline.device.tool == .finger {
            logger.debug("\(screen.name): the pen \(near ? "is near: its touches fire no gesture" : "left: gestures again \(fixed(config.daemon.palmAfterPenMS, decimals: 0)) ms after")")
            feed(.pen(near: near, at: screen.deviceTime(monotonicMicroseconds())), to: screen)
        }
    }
}
