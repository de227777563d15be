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

    /// The gestures that apply to a device under its rule (all when the rule names none).
    public func gestures(for rule: DeviceRule?) -> [GestureSpec] {
        guard let names = rule?.gestures else { return gestures }
        return gestures.filter { names.contains($0.name) }
    }
}

public struct DaemonSettings: Equatable, Codable, Sendable {
    public enum Bus: String, CaseIterable, Codable, Sendable { case system, session, none }
    public enum LogLevel: String, CaseIterable, Codable, Sendable { case debug, info, warning, error }

    public var bus = Bus.system
    /// Run commands as this user when the daemon runs as root.
    public var user: String?
    public var commandTimeoutMS = 30_000
    public var logLevel = LogLevel.info
    /// Grab every touchscreen and hand what no gesture takes to a uinput twin.
    public var isolate = false
    /// The longest an isolated panel's frames are held while a gesture may still take them.
    public var maxDelayMS = 1000.0

    public init() {}
}

/// How to treat a touchscreen, matched by name glob or vendor:product.
public struct DeviceRule: Equatable, Codable, Sendable {
    public var namePattern: String?
    public var vendor: UInt16?
    public var product: UInt16?
    public var ignore = false
    /// Clockwise degrees the panel is mounted at: 0, 90, 180 or 270.
    public var rotation = 0
    public var invertX = false
    public var invertY = false
    public var sizeMM: SizeMM?
    /// Overrides `[daemon] isolate` for this panel.
    public var isolate: Bool?
    /// The gestures that apply to it; nil for all.
    public var gestures: [String]?

    public init() {}

    public func matches(name: String, vendor: UInt16, product: UInt16) -> Bool {
        if let namePattern, !glob(namePattern, matches: name) { return false }
        if let v = self.vendor, v != vendor { return false }
        if let p = self.product, p != product { return false }
        return true
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
