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

    /// Writes the events as they are, in one write(2): uinput takes any number of whole
    /// events a call, in order, and the kernel stamps their time. A frame of a finger's
    /// four events is one system call (libevdev's writer makes one an event), which is
    /// most of what passing a touch through costs.
    public func write(_ events: [InputEvent]) throws(Errno) {
        guard !events.isEmpty else { return }
        let failure: Errno? = withUnsafeTemporaryAllocation(of: input_event.self, capacity: events.count) { buffer in
            for (index, event) in events.enumerated() {
                var raw = input_event()
                raw.type = event.type
                raw.code = event.code
                raw.value = event.value
                buffer[index] = raw
            }
            let bytes = UnsafeRawBufferPointer(buffer)
            var written = 0
            while written < bytes.count {
                do {
                    let took = try Syscall.write(fd, UnsafeRawBufferPointer(rebasing: bytes[written...]))
                    guard took > 0 else { return .ioError }
                    written += took
                } catch {
                    return error as? Errno ?? .ioError
                }
            }
            return nil
        }
        if let failure { throw failure }
    }
}

