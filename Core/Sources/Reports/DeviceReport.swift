import Config
import Pipeline
import TouchCore

/// `gestured devices`: each device that is or could be a touchscreen, with its figures
/// and what gestured does with it under a configuration, and why.
public enum DeviceReport {
    /// The devices worth listing: those with position axes, gestured's twins left out.
    public static func listed(_ devices: [InputDeviceFacts]) -> [InputDeviceFacts] {
        devices.filter { !$0.isTwin && ($0.hasPositionAxes || $0.isGestureSource) }
    }

    /// `displayRotation`: the running service's, for a rotation that follows the display;
    /// `screens`: as the kernel says now.
    public static func lines(_ d: InputDeviceFacts, config: Configuration, displayRotation: QuarterTurn? = nil,
                             screens: Screens? = nil) -> [String] {
        // The name comes from the device (a USB descriptor): shown as printable text.
        var lines = ["\(d.node)  '\(printable(d.name))'"]
        let number = config.devices.firstIndex { r in
            d.description.map { r.matches(name: $0.name, vendor: $0.vendor, product: $0.product) } ?? false
        }
        let rule = number.map { config.devices[$0] }
        if let description = d.description {
            lines.append("  id \(hex(description.vendor, digits: 4)):\(hex(description.product, digits: 4)), bus \(busName(description.bus))")
            lines.append(contentsOf: figures(description, rule: rule, rotation: config.rotation(for: rule), display: displayRotation))
            if let screens { lines.append("  screen: " + screens.describe(forOutput: rule?.output)) }
        }
        lines.append("  udev: \(d.udevKinds.isEmpty ? "no ID_INPUT_* class" : d.udevKinds.joined(separator: ", "))")
        if let number, let rule { lines.append("  rule: [[device]] number \(number + 1) (\(describe(rule)))") }
        lines.append("  gestured: " + verdict(d, rule: rule, config: config))
        return lines
    }

    /// Protocol, axes and size: what the recognizers measure with.
    private static func figures(_ description: DeviceDescription, rule: DeviceRule?, rotation: RotationSetting, display: QuarterTurn?) -> [String] {
        var lines: [String] = []
        switch description.touchProtocol {
        case .slotted(let slots)?: lines.append("  protocol: multitouch B, \(slots) slots")
        case .contactReports?: lines.append("  protocol: multitouch A (no slots)")
        case .singleTouch? where description.tool == .pen: lines.append("  protocol: a pen (BTN_TOOL_PEN; its tip is one contact)")
        case .singleTouch?: lines.append("  protocol: single touch (BTN_TOUCH, ABS_X/ABS_Y)")
        case nil: lines.append("  protocol: none (no position axes)")
        }
        guard let geometry = TouchscreenPipeline.geometry(description, rule: rule, rotation: rotation.rotation(display: display ?? .upright)) else { return lines }
        let orientation = geometry.orientation
        func axis(_ name: String, _ a: AbsoluteAxis) -> String {
            "\(name) \(a.minimum)…\(a.maximum)" + (a.resolution > 0 ? " (\(a.resolution) units/mm)" : " (no resolution)")
        }
        lines.append("  axes: " + axis("x", geometry.xAxis) + ", " + axis("y", geometry.yAxis))
        let size = geometry.size
        let whence = rule?.sizeMM != nil ? "size_mm of its rule"
            : geometry.knownSize != nil ? "from the resolution"
            : "assumed: a \(Int(DeviceGeometry.assumedDiagonalMM)) mm diagonal; set size_mm in a [[device]] rule"
        lines.append("  size: \(fixed(size.width, decimals: 1)) × \(fixed(size.height, decimals: 1)) mm (\(whence))")
        var mounting = switch rotation {
        case .fixed(let turn): "rotation \(turn)"
        case .automatic: "rotation auto (the accelerometer, through iio-sensor-proxy): " + (display.map { "\($0) now, says the running service" } ?? "no running service says the current one")
        case .external: "rotation external (set on the bus by the compositor): " + (display.map { "\($0) now, says the running service" } ?? "no running service says the current one")
        }
        if orientation.invertX { mounting += ", x inverted" }
        if orientation.invertY { mounting += ", y inverted" }
        lines.append("  mounting: \(mounting)")
        return lines
    }

    /// Whether the daemon reads it, isolates it, or why not, with what to do.
    private static func verdict(_ d: InputDeviceFacts, rule: DeviceRule?, config: Configuration) -> String {
        guard d.isGestureSource else {
            let what = d.udevKinds.first { $0 != "touchscreen" }.map { "a \($0)\($0 == "tablet" ? " not on the screen (no INPUT_PROP_DIRECT)" : "")" } ?? "not classified"
            return "not read: udev does not call it a touchscreen (ID_INPUT_TOUCHSCREEN is not 1; it is \(what)). A udev hwdb entry can, if it really is one"
        }
        if let error = d.openError {
            return "cannot open it (\(error)): gestured reads it as its service, as root, or as a member of the 'input' group; run `devices` the same way to see its figures"
        }
        guard let description = d.description else { return "not opened" }
        let use = PanelPolicy.use(description, isTwin: d.isTwin, config: config, mode: .service)
        if case .ignored(let reason) = use {
            return reason == .rule ? "ignored by its [[device]] rule (ignore = true)" : "not read: \(reason)"
        }
        if let twin = d.twinNode {
            return "read and isolated by a running gestured: applications get its twin \(twin); other readers (monitor) get nothing from this node"
        }
        let gestures = config.gestures(for: rule).count
        let counted = "\(gestures) gesture\(gestures == 1 ? "" : "s")"
        switch use {
        case .ignored, .read(nil): return "read, not isolated, \(counted)"
        case .read(let why?): return "read, not isolated: \(why) (its touches reach applications too), \(counted)"
        case .isolated: return "read, isolated (grabbed, with a uinput twin), \(counted)"
        }
    }

    private static func describe(_ rule: DeviceRule) -> String {
        var keys: [String] = []
        if let pattern = rule.namePattern { keys.append("name = \"\(pattern)\"") }
        if rule.vendor != nil || rule.product != nil {
            keys.append("id = \"\(rule.vendor.map { hex($0, digits: 4) } ?? "*"):\(rule.product.map { hex($0, digits: 4) } ?? "*")\"")
        }
        return keys.isEmpty ? "matches every device" : keys.joined(separator: ", ")
    }

    private static func busName(_ bus: UInt16) -> String {
        let names: [UInt16: String] = [0x01: "PCI", 0x03: "USB", 0x05: "Bluetooth", 0x06: "virtual", 0x11: "i8042",
                                       0x18: "I2C", 0x19: "host", 0x1c: "SPI", 0x1d: "RMI"]
        return "0x\(hex(bus, digits: 4))" + (names[bus].map { " (\($0))" } ?? "")
    }
}
