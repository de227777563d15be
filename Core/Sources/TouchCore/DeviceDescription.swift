/// The range of one absolute axis (`struct input_absinfo`, an evemu `A:` line).
public struct AbsoluteAxis: Equatable, Sendable {
    public var code: UInt16
    public var minimum: Int32
    public var maximum: Int32
    /// Units per millimetre; 0 when the device does not say.
    public var resolution: Int32

    public init(code: UInt16, minimum: Int32, maximum: Int32, resolution: Int32 = 0) {
        self.code = code
        self.minimum = minimum
        self.maximum = maximum
        self.resolution = resolution
    }
}

/// What a device is: its name, ids and axes (an evemu `.desc` header or a live device).
public struct DeviceDescription: Equatable, Sendable {
    public var name: String
    public var bus: UInt16 = 0
    public var vendor: UInt16 = 0
    public var product: UInt16 = 0
    public var axes: [AbsoluteAxis] = []

    public init(name: String, bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, axes: [AbsoluteAxis] = []) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.axes = axes
    }

    public func axis(_ code: UInt16) -> AbsoluteAxis? {
        axes.first { $0.code == code }
    }

    /// How the device reports contacts, decided from its axes the way the kernel documents
    /// them: slots mean protocol B, multitouch positions without slots protocol A, and
    /// plain ABS_X/ABS_Y with BTN_TOUCH a single-touch panel.
    public var touchProtocol: TouchProtocol? {
        if axis(AbsCode.mtPositionX) != nil, axis(AbsCode.mtPositionY) != nil {
            if let slots = axis(AbsCode.mtSlot) { return .slotted(slotCount: Int(slots.maximum) + 1) }
            return .contactReports
        }
        if axis(AbsCode.x) != nil, axis(AbsCode.y) != nil { return .singleTouch }
        return nil
    }
}

public enum TouchProtocol: Equatable, Sendable {
    /// MT protocol B: ABS_MT_SLOT and ABS_MT_TRACKING_ID.
    case slotted(slotCount: Int)
    /// MT protocol A: anonymous contacts separated by SYN_MT_REPORT.
    case contactReports
    /// BTN_TOUCH with ABS_X/ABS_Y (resistive kiosk panels).
    case singleTouch
}
