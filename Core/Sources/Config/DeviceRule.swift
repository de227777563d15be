import Bindings
import Gestures
import TouchCore

/// How to treat a touchscreen, matched by name glob or vendor:product.
public struct DeviceRule: Equatable, Codable, Sendable {
    public var namePattern: String?
    public var vendor: UInt16?
    public var product: UInt16?
    public var ignore = false
    /// How the panel is turned; nil: `[daemon] rotation`.
    public var rotation: RotationSetting?
    public var invertX = false
    public var invertY = false
    public var sizeMM: SizeMM?
    /// Overrides `[daemon] isolate` for this panel.
    public var isolate: Bool?
    /// While its pen is near (and `palm_after_pen_ms` after), its twin gets no touches
    /// either: a drawing application does not take the palm for fingers.
    public var withholdPalm = false
    /// The screen it lies on, by its output's name (`eDP-1`, `HDMI-A-1`); nil: the
    /// built-in one, else the only one (see `Screens`).
    public var output: String?
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
