/// What `gestured devices` knows of one input device: what udev and sysfs say (readable
/// by anyone), and what opening it told (its axes), or why it could not be opened.
public struct InputDeviceFacts: Sendable {
    public var node: String
    public var name: String
    /// The kernel's phys path; a gestured twin's is `gestured-twin/` and its panel's.
    public var phys: String
    /// udev's ID_INPUT_* classification (touchscreen, touchpad, tablet, mouse, …).
    public var udevKinds: [String]
    /// The absolute axes sysfs lists (capabilities/abs), known even without access.
    public var absCodes: Set<UInt16>
    /// INPUT_PROP_DIRECT: on the screen (a tablet with it is a touchscreen's pen).
    public var isDirect: Bool
    /// From the opened device: nil when it could not be opened.
    public var description: DeviceDescription?
    /// Why it could not be opened.
    public var openError: String?
    /// The node of a gestured twin made for it: a running gestured isolates it.
    public var twinNode: String?

    public init(node: String, name: String, phys: String = "", udevKinds: [String] = [], absCodes: Set<UInt16> = [],
                isDirect: Bool = false, description: DeviceDescription? = nil, openError: String? = nil, twinNode: String? = nil) {
        self.node = node
        self.name = name
        self.phys = phys
        self.udevKinds = udevKinds
        self.absCodes = absCodes
        self.isDirect = isDirect
        self.description = description
        self.openError = openError
        self.twinNode = twinNode
    }

    public var isTwin: Bool { TwinPhys.marks(phys) }
    /// The phys this panel's twin would have.
    public var twinPhys: String { TwinPhys.of(panel: phys, node: node) }

    /// Could report touches: position axes, single or multitouch. Keyboards, buttons and
    /// relative mice cannot.
    public var hasPositionAxes: Bool {
        absCodes.isSuperset(of: [AbsCode.x, AbsCode.y]) || absCodes.isSuperset(of: [AbsCode.mtPositionX, AbsCode.mtPositionY])
    }

    /// What the daemon reads: udev's touchscreens (ID_INPUT_TOUCHSCREEN=1), and their pens
    /// (tablets on the screen).
    public var isGestureSource: Bool { udevKinds.contains("touchscreen") || (udevKinds.contains("tablet") && isDirect) }
}

/// The codes set in a sysfs capability bitmask (`capabilities/abs`): hex words, the most
/// significant first, each as wide as the kernel's `long` (64 bits here).
public func sysfsBitmaskCodes(_ text: String) -> Set<UInt16> {
    var codes = Set<UInt16>()
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).reversed()
    for (index, word) in words.enumerated() {
        guard let bits = UInt64(word, radix: 16) else { return [] }
        for bit in 0..<64 where bits & (1 << UInt64(bit)) != 0 {
            if let code = UInt16(exactly: index * 64 + bit) { codes.insert(code) }
        }
    }
    return codes
}
