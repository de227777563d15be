import CEvdev
import SystemIO
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif
import TouchCore

/// An isolated panel's stand-in for everyone else: a uinput device with the panel's name,
/// ids, properties, axes and resolutions (libevdev_uinput_create_from_device), so that a
/// compositor, X or libinput takes it for the panel, calibration and output mapping
/// included. Its phys is its panel's marked as a twin (`TwinPhys`), which is how
/// gestured tells its own (or another instance's) twins from touchscreens. The kernel removes it when its fd closes:
/// on `deinit`, and when the daemon dies however it dies.
public final class UinputTwin {
    private let device: OpaquePointer
    private let fd: FileDescriptor

    init(_ device: OpaquePointer, fd: FileDescriptor) {
        self.device = device
        self.fd = fd
    }

    deinit {
        libevdev_uinput_destroy(device)
        Syscall.release(fd)
    }

    /// The twin's event node, as udev will name it (nil if the kernel did not say).
    public var node: String? { libevdev_uinput_get_devnode(device).map { String(cString: $0) } }

    /// Writes the events as they are; the kernel stamps their time.
    public func write(_ events: [InputEvent]) throws(Errno) {
        for event in events {
            let rc = libevdev_uinput_write_event(device, UInt32(event.type), UInt32(event.code), event.value)
            if rc < 0 { throw Errno(rawValue: -rc) }
        }
    }
}

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

    /// Creates the twin (needs write access to /dev/uinput). A multitouch panel's twin also
    /// has ABS_MT_TOOL_TYPE, even when the panel lacks it: touches a gesture takes are
    /// cancelled there as palms, which libinput reports as TOUCH_CANCEL.
    public func makeTwin() throws(Errno) -> UinputTwin {
        let uinput: FileDescriptor
        do {
            uinput = try FileDescriptor.open("/dev/uinput", .readWrite, options: [.closeOnExec])
        } catch {
            throw error as? Errno ?? .ioError
        }
        // libevdev does not copy phys: it is set on the fd before libevdev creates the device.
        let phys = CEvdev_uinput_set_phys(uinput.rawValue, twinPhys)
        if phys < 0 {
            Syscall.release(uinput)
            throw Errno(rawValue: -phys)
        }
        let toolType = UInt32(0x37)  // ABS_MT_TOOL_TYPE
        let addsToolType = libevdev_has_event_code(handle, UInt32(EventType.abs), UInt32(AbsCode.mtSlot)) == 1
            && libevdev_has_event_code(handle, UInt32(EventType.abs), toolType) == 0
        if addsToolType {
            var info = input_absinfo(value: 0, minimum: 0, maximum: 2 /* MT_TOOL_PALM */, fuzz: 0, flat: 0, resolution: 0)
            _ = libevdev_enable_event_code(handle, UInt32(EventType.abs), toolType, &info)
        }
        defer { if addsToolType { _ = libevdev_disable_event_code(handle, UInt32(EventType.abs), toolType) } }
        var twin: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(handle, uinput.rawValue, &twin)
        guard rc == 0, let twin else {
            Syscall.release(uinput)
            throw Errno(rawValue: -rc)
        }
        return UinputTwin(twin, fd: uinput)
    }
}
