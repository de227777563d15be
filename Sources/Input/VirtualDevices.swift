import Bindings
import CEvdev
import SystemIO
import SystemPackage
import TouchCore

/// gestured's virtual keyboard and pointer, through which `keys`, `click` and `scroll`
/// act on whatever reads input: X, any Wayland compositor, a kiosk's or the console. Made
/// while a configuration binds them, named `gestured keyboard` and `gestured pointer`,
/// and marked as gestured's (`TwinPhys`) so that gestured never reads them. What they send
/// is the seat's (`VirtualInput`); a chord is written pressed and released at once, so no key is
/// left down by anything that happens after, and the kernel removes both devices with
/// the daemon however it dies.
public final class VirtualDevices {
    private let keyboard: UinputDevice
    private let pointer: UinputDevice

    /// Needs write access to /dev/uinput, as isolation does.
    public init() throws(Errno) {
        keyboard = try Self.make("gestured keyboard", phys: TwinPhys.keyboard) { device in
            _ = libevdev_enable_event_type(device, UInt32(EventType.key))
            for code in KeyCodes.libevdev.keys { _ = libevdev_enable_event_code(device, UInt32(EventType.key), UInt32(code), nil) }
        }
        pointer = try Self.make("gestured pointer", phys: TwinPhys.pointer) { device in
            var axis = input_absinfo(value: 0, minimum: 0, maximum: VirtualInput.pointerMaximum, fuzz: 0, flat: 0, resolution: 0)
            _ = libevdev_enable_event_type(device, UInt32(EventType.abs))
            for code in [AbsCode.x, AbsCode.y] { _ = libevdev_enable_event_code(device, UInt32(EventType.abs), UInt32(code), &axis) }
            _ = libevdev_enable_event_type(device, UInt32(EventType.key))
            for button in MouseButton.allCases { _ = libevdev_enable_event_code(device, UInt32(EventType.key), UInt32(button.code), nil) }
            _ = libevdev_enable_event_type(device, UInt32(VirtualInput.relative))
            for code in VirtualInput.wheelCodes { _ = libevdev_enable_event_code(device, UInt32(VirtualInput.relative), UInt32(code), nil) }
        }
    }

    private static func make(_ name: String, phys: String, _ enable: (OpaquePointer) -> Void) throws(Errno) -> UinputDevice {
        guard let description = libevdev_new() else { throw .noMemory }
        defer { libevdev_free(description) }
        libevdev_set_name(description, name)
        libevdev_set_id_bustype(description, 0x06)  // BUS_VIRTUAL
        enable(description)
        return try UinputDevice.create(like: description, phys: phys)
    }

    /// The keyboard's and pointer's event nodes, for the log.
    public var nodes: [String] { [keyboard.node, pointer.node].compactMap { $0 } }

    /// What `VirtualInput` made for one of them (the seat's `.write`).
    public func write(_ events: [InputEvent], toPointer: Bool) throws(Errno) {
        try (toPointer ? pointer : keyboard).write(events)
    }
}
