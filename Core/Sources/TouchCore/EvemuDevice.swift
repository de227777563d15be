/// Everything `evemu-device` needs to make a device like a recorded one: ids, property
/// and event-code bitmasks, and every absolute axis in full (`gestured record` writes it).
public struct EvemuDevice: Equatable, Sendable {
    public struct Axis: Equatable, Sendable {
        public var code: UInt16
        public var minimum: Int32
        public var maximum: Int32
        public var fuzz: Int32
        public var flat: Int32
        public var resolution: Int32

        public init(code: UInt16, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
            self.code = code
            self.minimum = minimum
            self.maximum = maximum
            self.fuzz = fuzz
            self.flat = flat
            self.resolution = resolution
        }
    }

    /// One event type's codes as the kernel's bitmask bytes (EVIOCGBIT), bit n for code n.
    public struct CodeMask: Equatable, Sendable {
        public var type: UInt16
        public var bytes: [UInt8]

        public init(type: UInt16, codes: [UInt16]) {
            self.type = type
            bytes = bitmask(codes.map(Int.init))
        }
    }

    public var name: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    /// INPUT_PROP_* numbers (INPUT_PROP_DIRECT = 1 for a touchscreen).
    public var properties: [UInt16]
    /// EV_SYN's mask (the event types) first, as evemu writes them.
    public var masks: [CodeMask]
    public var axes: [Axis]

    public init(name: String, bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16,
                properties: [UInt16], masks: [CodeMask], axes: [Axis]) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.masks = masks
        self.axes = axes
    }
}
