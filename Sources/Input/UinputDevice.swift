import CEvdev
import SystemIO
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif
import TouchCore

/// A device gestured writes to through uinput: an isolated panel's twin, or its virtual
/// keyboard or pointer. Its phys marks it as gestured's (`TwinPhys`), which is how
/// gestured tells its own (or another instance's) devices from those it reads. The kernel
/// removes it when its fd closes: on `deinit`, and when the daemon dies however it dies.
public final class UinputDevice {
    private let device: OpaquePointer
    private let fd: FileDescriptor
    /// Its node, when it is recorded as a twin (`TwinRecords`).
    private var recorded: String?

    private init(_ device: OpaquePointer, fd: FileDescriptor) {
        self.device = device
        self.fd = fd
    }

    deinit {
        // The record goes first: a device that takes the node next is no twin of ours.
        if let recorded { TwinRecords.erase(twin: recorded) }
        libevdev_uinput_destroy(device)
        Syscall.release(fd)
    }

    /// Records it as the twin of the panel at `panel`, so that udev gives it the panel's
    /// identity (`TwinRecords`); erased when it goes.
    public func recordAsTwin(of panel: String) throws(Files.CreateError) {
        guard let node else { throw .system(.noSuchFileOrDirectory) }
        try TwinRecords.record(twin: node, panel: panel)
        recorded = node
    }

    /// Creates a device as `description` (a libevdev handle) describes it, with `phys`
    /// (needs write access to /dev/uinput).
    static func create(like description: OpaquePointer, phys: String) throws(Errno) -> UinputDevice {
        let uinput: FileDescriptor
        do {
            uinput = try FileDescriptor.open("/dev/uinput", .readWrite, options: [.closeOnExec])
        } catch {
            throw error as? Errno ?? .ioError
        }
        // libevdev does not copy phys: it is set on the fd before libevdev creates the device.
        let set = CEvdev_uinput_set_phys(uinput.rawValue, phys)
        if set < 0 {
            Syscall.release(uinput)
            throw Errno(rawValue: -set)
        }
        var device: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(description, uinput.rawValue, &device)
        guard rc == 0, let device else {
            Syscall.release(uinput)
            throw Errno(rawValue: -rc)
        }
        return UinputDevice(device, fd: uinput)
    }

    /// The device's event node, as udev will name it (nil if the kernel did not say).
    public var node: String? { libevdev_uinput_get_devnode(device).map { String(cString: $0) } }

    /// Writes the events as they are; the kernel stamps their time.
    public func write(_ events: [InputEvent]) throws(Errno) {
        for event in events {
            let rc = libevdev_uinput_write_event(device, UInt32(event.type), UInt32(event.code), event.value)
            if rc < 0 { throw Errno(rawValue: -rc) }
        }
    }
}

