import CEvdev
import SystemIO
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif
import TouchCore

extension EvdevDevice {
    /// Whether this device is a twin gestured made: never a touchscreen to read.
    public var isTwin: Bool { TwinPhys.marks(phys) }

    /// The phys a twin of this panel has: how anyone finds whether gestured isolates it.
    public var twinPhys: String { TwinPhys.of(panel: phys, node: path) }

    private var phys: String? { libevdev_get_phys(handle).map { String(cString: $0) } }

    /// Takes the panel for gestured alone (EVIOCGRAB): nobody else reads its events until
    /// `release` or the fd closes.
    public func grab() throws(Errno) {
        let rc = libevdev_grab(handle, LIBEVDEV_GRAB)
        if rc < 0 { throw Errno(rawValue: -rc) }
    }

    public func release() {
        _ = libevdev_grab(handle, LIBEVDEV_UNGRAB)
    }

    /// Creates the twin (needs write access to /dev/uinput): a uinput device with the
    /// panel's name, ids, properties, axes and resolutions, so that a compositor, X or
    /// libinput takes it for the panel, calibration and output mapping included. A multitouch panel's twin also
    /// has ABS_MT_TOOL_TYPE, even when the panel lacks it: touches a gesture takes are
    /// cancelled there as palms, which libinput reports as TOUCH_CANCEL.
    public func makeTwin() throws(Errno) -> UinputDevice {
        let toolType = UInt32(0x37)  // ABS_MT_TOOL_TYPE
        let addsToolType = libevdev_has_event_code(handle, UInt32(EventType.abs), UInt32(AbsCode.mtSlot)) == 1
            && libevdev_has_event_code(handle, UInt32(EventType.abs), toolType) == 0
        if addsToolType {
            var info = input_absinfo(value: 0, minimum: 0, maximum: 2 /* MT_TOOL_PALM */, fuzz: 0, flat: 0, resolution: 0)
            _ = libevdev_enable_event_code(handle, UInt32(EventType.abs), toolType, &info)
        }
        defer { if addsToolType { _ = libevdev_disable_event_code(handle, UInt32(EventType.abs), toolType) } }
        return try UinputDevice.create(like: handle, phys: twinPhys)
    }
}
