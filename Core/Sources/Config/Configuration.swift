import Bindings
import Gestures
import TouchCore

/// A validated configuration: what the daemon recognizes, where, and what it does.
public struct Configuration: Equatable, Codable, Sendable {
    public var daemon = DaemonSettings()
    public var regions: [Region] = []
    /// In file order, regions resolved.
    public var gestures: [GestureSpec] = []
    /// One per gesture, same order.
    public var bindings: [Binding] = []
    public var devices: [DeviceRule] = []

    public init() {}

    /// Gestures without actions, for replays and tests.
    public init(gestures: [GestureSpec]) {
        self.gestures = gestures
        bindings = gestures.map { Binding(gesture: $0.name) }
    }

    /// The first rule that matches a device, if any.
    public func rule(for device: DeviceDescription) -> DeviceRule? {
        devices.first { $0.matches(name: device.name, vendor: device.vendor, product: device.product) }
    }

    /// Whether the configuration asks for a device to be grabbed, with a uinput twin getting
    /// what no gesture takes (whether it is, `PanelPolicy` decides).
    public func asksToIsolate(_ device: DeviceDescription) -> Bool {
        rule(for: device)?.isolate ?? daemon.isolate
    }

    /// A touch that wakes a dark screen is withheld from some panel's twin, and gestured's
    /// keyboard wakes the screen (see `wake_latch`): the keyboard must be there before.
    public var wakesWithKeyboard: Bool {
        daemon.wakeLatch && daemon.wakeCommand == nil && (daemon.isolate || devices.contains { $0.isolate == true })
    }

    /// Whether some gesture is for some applications only, or not for some: the
    /// application in front is then wanted (from the session agent, for the system service).
    public var followsApplications: Bool {
        gestures.contains { !$0.apps.isEverywhere }
    }

    /// Whether some panel's rotation follows the accelerometer.
    public var followsAccelerometer: Bool {
        daemon.rotation == .automatic || devices.contains { $0.rotation == .automatic }
    }

    /// How a device's rotation is known under its rule.
    /// The accelerometer turns the built-in screen: under `[daemon] rotation = "auto"`, a
    /// panel whose rule puts it on another screen stays upright unless the rule says how
    /// it turns.
    public func rotation(for rule: DeviceRule?) -> RotationSetting {
        if let rotation = rule?.rotation { return rotation }
        if daemon.rotation == .automatic, let output = rule?.output, !Screens.isBuiltIn(output) {
            return .fixed(.upright)
        }
        return daemon.rotation
    }

    /// The gestures that apply to a device under its rule (all when the rule names none).
    public func gestures(for rule: DeviceRule?) -> [GestureSpec] {
        guard let names = rule?.gestures else { return gestures }
        return gestures.filter { names.contains($0.name) }
    }
}

/// Shell-style matching of `*` (any run) and `?` (any one character).
func glob(_ pattern: String, matches text: String) -> Bool {
    let p = Array(pattern), t = Array(text)
    var pi = 0, ti = 0, star = -1, mark = 0
    while ti < t.count {
        if pi < p.count, p[pi] == "?" || p[pi] == t[ti] {
            pi += 1
            ti += 1
        } else if pi < p.count, p[pi] == "*" {
            star = pi
            mark = ti
            pi += 1
        } else if star >= 0 {
            pi = star + 1
            mark += 1
            ti = mark
        } else {
            return false
        }
    }
    while pi < p.count, p[pi] == "*" { pi += 1 }
    return pi == p.count
}
