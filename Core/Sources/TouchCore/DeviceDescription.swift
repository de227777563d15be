/// What a device is: its name, ids and axes (an evemu `.desc` header or a live device).
public struct DeviceDescription: Equatable, Sendable {
    public var name: String
    public var bus: UInt16 = 0
    public var vendor: UInt16 = 0
    public var product: UInt16 = 0
    public var axes: [AbsoluteAxis] = []
    /// A pen node (it reports BTN_TOOL_PEN) or a touchscreen's fingers.
    public var tool = ContactTool.finger
    /// udev's LIBINPUT_CALIBRATION_MATRIX for a live device: what libinput applies before
    /// the desktop sees a touch, so gestured applies it too (nil: none, a recording).
    public var calibration: CalibrationMatrix?

    public init(name: String, bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, axes: [AbsoluteAxis] = [],
                tool: ContactTool = .finger) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.axes = axes
        self.tool = tool
    }

    public func axis(_ code: UInt16) -> AbsoluteAxis? {
        axes.first { $0.code == code }
    }

    /// How the device reports contacts, decided from its axes the way the kernel documents
    /// them: slots mean protocol B, multitouch positions without slots protocol A, and
    /// plain ABS_X/ABS_Y with BTN_TOUCH a single-touch panel, or a pen (its tip is the touch).
    public var touchProtocol: TouchProtocol? {
        if axis(AbsCode.mtPositionX) != nil, axis(AbsCode.mtPositionY) != nil {
            if let slots = axis(AbsCode.mtSlot) { return .slotted(slotCount: Int(slots.maximum) + 1) }
            return .contactReports
        }
        if axis(AbsCode.x) != nil, axis(AbsCode.y) != nil { return .singleTouch }
        return nil
    }
}
