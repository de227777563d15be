import CUdev
import SystemPackage
import TouchCore

/// Touchscreens and their pens as udev sees them, and the switches that say a 2-in-1 is
/// a tablet: the ones present at start, then add and remove events from a monitor whose
/// descriptor joins the event loop.
public final class Udev {
    public struct Event {
        public var action: String
        public var node: String
        /// A touchscreen, or a touchscreen's pen (see `isGestureSource`).
        public var isGestureSource: Bool
        /// A switch with SW_TABLET_MODE (see `isTabletSwitch`).
        public var isTabletSwitch: Bool
        /// A DRM device (a card, a connector) or a backlight: what says whether the
        /// screens are lit may have come, changed or gone (see `ScreenSensor`).
        public var isScreen = false
    }

    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    public let fd: FileDescriptor

    public init() throws(Errno) {
        guard let udev = udev_new() else { throw .noMemory }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            udev_unref(udev)
            throw .permissionDenied
        }
        self.udev = udev
        self.monitor = monitor
        var rc: Int32 = 0
        for subsystem in ["input"] + Self.screenSubsystems where rc >= 0 {
            rc = udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil)
        }
        if rc >= 0 { rc = udev_monitor_enable_receiving(monitor) }
        guard rc >= 0 else {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            throw Errno(rawValue: -rc)
        }
        fd = FileDescriptor(rawValue: udev_monitor_get_fd(monitor))
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// The event nodes of the touchscreens, and of their pens, present now.
    public static func touchscreenNodes() throws(Errno) -> [String] {
        try inputDevices(touchscreensOnly: true).map(\.node)
    }

    /// The event nodes of the switches that say tablet mode, present now.
    public static func tabletSwitchNodes() throws(Errno) -> [String] {
        try inputDevices(matching: ["ID_INPUT_SWITCH"], where: isTabletSwitch).map(\.node)
    }

    /// What pairs a pen with its touchscreen, as libinput pairs them: udev's
    /// LIBINPUT_DEVICE_GROUP, else the physical device both input devices hang from.
    public static func deviceGroup(of node: String) -> String? {
        withInputDevice(String(node.split(separator: "/").last ?? "")) { device in
            if let group = udev_device_get_property_value(device, "LIBINPUT_DEVICE_GROUP") { return String(cString: group) }
            // eventN → inputN → the device itself (a USB interface, an I2C client).
            guard let input = udev_device_get_parent(device), let physical = udev_device_get_parent(input),
                  let path = udev_device_get_syspath(physical) else { return nil }
            return String(cString: path)
        }
    }

    /// udev's LIBINPUT_CALIBRATION_MATRIX of the input device `node`; nil when it has none,
    /// or one that is not six numbers (libinput ignores such a one too).
    public static func calibration(of node: String) -> CalibrationMatrix? {
        withInputDevice(String(node.split(separator: "/").last ?? "")) { device in
            udev_device_get_property_value(device, "LIBINPUT_CALIBRATION_MATRIX").flatMap { CalibrationMatrix(udev: String(cString: $0)) }
        }
    }

    /// The udev properties of the input device `sysname` (`event7`); nil when it is gone.
    public static func properties(ofDevice sysname: String) -> [(key: String, value: String)]? {
        withInputDevice(sysname) { properties(of: $0) }
    }

    /// What `body` reads of the input device `sysname`; nil when it is gone.
    private static func withInputDevice<T>(_ sysname: String, _ body: (OpaquePointer) -> T?) -> T? {
        guard let udev = udev_new() else { return nil }
        defer { udev_unref(udev) }
        guard let device = udev_device_new_from_subsystem_sysname(udev, "input", sysname) else { return nil }
        defer { udev_device_unref(device) }
        return body(device)
    }

    /// A device's udev properties, at most `TwinIdentity.mostProperties` × 4 of them.
    private static func properties(of device: OpaquePointer) -> [(key: String, value: String)] {
        var properties: [(key: String, value: String)] = []
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry, properties.count < TwinIdentity.mostProperties * 4 {
            entry = udev_list_entry_get_next(current)
            guard let key = udev_list_entry_get_name(current) else { continue }
            properties.append((String(cString: key), udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""))
        }
        return properties
    }

    /// udev's touchscreens, and its tablets that are on the screen (INPUT_PROP_DIRECT in
    /// the parent's `properties`): a touchscreen's pen, not a graphics tablet.
    private static func isGestureSource(_ device: OpaquePointer) -> Bool {
        func property(_ name: String) -> Bool { udev_device_get_property_value(device, name).map { String(cString: $0) } == "1" }
        if property("ID_INPUT_TOUCHSCREEN") { return true }
        guard property("ID_INPUT_TABLET"), let parent = udev_device_get_parent(device),
              let properties = udev_device_get_sysattr_value(parent, "properties").map({ String(cString: $0) }) else { return false }
        return sysfsBitmaskCodes(properties).contains(1)  // INPUT_PROP_DIRECT
    }

    /// udev's switches that have SW_TABLET_MODE (in the parent's `capabilities/sw`): an
    /// ACPI or embedded controller's switch, a detachable keyboard's.
    private static func isTabletSwitch(_ device: OpaquePointer) -> Bool {
        guard udev_device_get_property_value(device, "ID_INPUT_SWITCH").map({ String(cString: $0) }) == "1",
              let parent = udev_device_get_parent(device),
              let switches = udev_device_get_sysattr_value(parent, "capabilities/sw").map({ String(cString: $0) }) else { return false }
        return sysfsBitmaskCodes(switches).contains(SwitchCode.tabletMode)
    }

    /// Every event node of the input subsystem (or only udev's touchscreens, which udev
    /// picks out by their property), with what udev and sysfs say of it: readable without
    /// opening the device (`gestured devices` opens it after).
    public static func inputDevices(touchscreensOnly: Bool = false) throws(Errno) -> [InputDeviceFacts] {
        // Matches on properties are or'ed: touchscreens and tablets, the tablets sorted below.
        guard touchscreensOnly else { return try inputDevices(matching: [], where: nil) }
        return try inputDevices(matching: ["ID_INPUT_TOUCHSCREEN", "ID_INPUT_TABLET"], where: isGestureSource)
    }

    /// The input subsystem's event nodes with one of `properties` set to 1 (all of them,
    /// for none) that `keep` keeps.
    private static func inputDevices(matching properties: [String], where keep: ((OpaquePointer) -> Bool)?) throws(Errno) -> [InputDeviceFacts] {
        guard let udev = udev_new() else { throw .noMemory }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else { throw .noMemory }
        defer { udev_enumerate_unref(enumerate) }
        var rc = udev_enumerate_add_match_subsystem(enumerate, "input")
        for property in properties where rc >= 0 { rc = udev_enumerate_add_match_property(enumerate, property, "1") }
        if rc >= 0 { rc = udev_enumerate_scan_devices(enumerate) }
        if rc < 0 { throw Errno(rawValue: -rc) }
        var devices: [InputDeviceFacts] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            entry = udev_list_entry_get_next(current)
            guard let syspath = udev_list_entry_get_name(current),
                  let device = udev_device_new_from_syspath(udev, syspath) else { continue }
            defer { udev_device_unref(device) }
            // The inputN parent holds the name, phys and capabilities of its eventN node.
            guard let node = Self.eventNode(device), let parent = udev_device_get_parent(device),
                  keep?(device) ?? true else { continue }
            func attribute(_ name: String) -> String { udev_device_get_sysattr_value(parent, name).map { String(cString: $0) } ?? "" }
            let kinds = Self.inputKinds.filter { udev_device_get_property_value(device, "ID_INPUT_" + $0.uppercased()).map { String(cString: $0) } == "1" }
            devices.append(InputDeviceFacts(node: node, name: attribute("name"), phys: attribute("phys"), udevKinds: kinds,
                                            absCodes: sysfsBitmaskCodes(attribute("capabilities/abs")),
                                            isDirect: sysfsBitmaskCodes(attribute("properties")).contains(1)))
        }
        return devices.sorted { $0.node.count != $1.node.count ? $0.node.count < $1.node.count : $0.node < $1.node }
    }

    /// udev's input classes (ID_INPUT_TOUCHSCREEN and the rest), the touch-like first.
    private static let inputKinds = ["touchscreen", "touchpad", "tablet", "joystick", "mouse", "keyboard", "key", "switch", "accelerometer"]

    /// The next device event from the monitor, if one is waiting.
    public func receive() -> Event? {
        guard let device = udev_monitor_receive_device(monitor) else { return nil }
        defer { udev_device_unref(device) }
        let action = udev_device_get_action(device).map { String(cString: $0) } ?? ""
        guard let node = Self.eventNode(device) else {
            let subsystem = udev_device_get_subsystem(device).map { String(cString: $0) } ?? ""
            return Event(action: action, node: "", isGestureSource: false, isTabletSwitch: false,
                         isScreen: Self.screenSubsystems.contains(subsystem))
        }
        return Event(action: action, node: node, isGestureSource: Self.isGestureSource(device), isTabletSwitch: Self.isTabletSwitch(device))
    }

    /// Where the kernel says whether the screens are lit.
    private static let screenSubsystems = ["drm", "backlight"]

    /// /dev/input/eventN, the node libevdev reads; nil for the parent inputN devices.
    private static func eventNode(_ device: OpaquePointer) -> String? {
        guard let node = udev_device_get_devnode(device).map({ String(cString: $0) }),
              node.hasPrefix("/dev/input/event") else { return nil }
        return node
    }
}
