import Bindings
import CEvdev
import SystemIO
import SystemPackage
import TouchCore

/// gestured's virtual keyboard and pointer, through which `keys`, `click`, `scroll` and
/// `hold` act on whatever reads input: X, any Wayland compositor, a kiosk's or the console;
/// and its virtual touchpad, made only while a binding has `touchpad = true`. Made while a
/// configuration binds them, named `gestured keyboard`, `gestured pointer` and `gestured
/// touchpad`, and marked as gestured's (`TwinPhys`) so that gestured never reads them.
/// What they send is the seat's (`VirtualInput`, `VirtualTouchpad`), which releases what
/// a gesture holds however it ends; the kernel removes them, and releases what they
/// held, with the daemon however it dies.
public final class VirtualDevices {
    public enum Device {
        case keyboard, pointer, touchpad
    }

    private let keyboard: UinputDevice
    private let pointer: UinputDevice
    private var touchpad: UinputDevice?
    /// The touchpad's frames, a touchpad's pace apart (`TouchpadPace`).
    private var touchpadPace = TouchpadPace()

    /// Needs write access to /dev/uinput, as isolation does.
    public init(touchpad withTouchpad: Bool) throws(Errno) {
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
        if withTouchpad { try setTouchpad(true) }
    }

    /// Makes the touchpad or removes it, the keyboard and pointer left as they are (what
    /// they hold stays held). Removed with fingers on it, the kernel lifts them.
    public func setTouchpad(_ wanted: Bool) throws(Errno) {
        guard wanted != (touchpad != nil) else { return }
        touchpadPace = TouchpadPace()
        touchpad = wanted ? try Self.make("gestured touchpad", phys: TwinPhys.touchpad, Self.enableTouchpad) : nil
    }

    public var touchpadNode: String? { touchpad?.node }

    /// A clickpad as libinput wants one: a pointer, not direct, with the slots, the
    /// tool-count buttons and axes in millimetres (`VirtualTouchpad`).
    private static func enableTouchpad(_ device: OpaquePointer) {
        _ = libevdev_enable_property(device, UInt32(INPUT_PROP_POINTER))
        _ = libevdev_enable_property(device, UInt32(INPUT_PROP_BUTTONPAD))
        _ = libevdev_enable_event_type(device, UInt32(EventType.key))
        for code in [KeyCode.btnTouch, VirtualTouchpad.button] + VirtualTouchpad.toolCodes {
            _ = libevdev_enable_event_code(device, UInt32(EventType.key), UInt32(code), nil)
        }
        _ = libevdev_enable_event_type(device, UInt32(EventType.abs))
        let (width, height) = VirtualTouchpad.maximum
        func axis(_ code: UInt16, _ maximum: Int32, resolution: Int32) {
            var info = input_absinfo(value: 0, minimum: 0, maximum: maximum, fuzz: 0, flat: 0, resolution: resolution)
            _ = libevdev_enable_event_code(device, UInt32(EventType.abs), UInt32(code), &info)
        }
        axis(AbsCode.x, width, resolution: VirtualTouchpad.unitsPerMM)
        axis(AbsCode.y, height, resolution: VirtualTouchpad.unitsPerMM)
        axis(AbsCode.mtPositionX, width, resolution: VirtualTouchpad.unitsPerMM)
        axis(AbsCode.mtPositionY, height, resolution: VirtualTouchpad.unitsPerMM)
        axis(AbsCode.mtSlot, Int32(VirtualTouchpad.slots - 1), resolution: 0)
        axis(AbsCode.mtTrackingID, Int32(UInt16.max), resolution: 0)
    }

    private static func make(_ name: String, phys: String, _ enable: (OpaquePointer) -> Void) throws(Errno) -> UinputDevice {
        guard let description = libevdev_new() else { throw .noMemory }
        defer { libevdev_free(description) }
        libevdev_set_name(description, name)
        libevdev_set_id_bustype(description, 0x06)  // BUS_VIRTUAL
        enable(description)
        return try UinputDevice.create(like: description, phys: phys)
    }

    /// The devices' event nodes, for the log.
    public var nodes: [String] { [keyboard.node, pointer.node, touchpad?.node].compactMap { $0 } }
    public var hasTouchpad: Bool { touchpad != nil }

    /// What the seat made for one of them (`.write`); nothing for a touchpad not made.
    /// The touchpad's wait their turn (`touchpadDue`, `writeDueTouchpadFrames`).
    public func write(_ events: [InputEvent], to device: Device, now: Int64) throws(Errno) {
        switch device {
        case .keyboard: try keyboard.write(events)
        case .pointer: try pointer.write(events)
        case .touchpad:
            guard let touchpad else { return }
            for batch in touchpadPace.submit(events, now: now) { try write(batch, to: touchpad) }
        }
    }

    /// When the touchpad's next waiting frame is to be written.
    public var touchpadDue: Int64? { touchpadPace.due }

    /// The touchpad's frames whose time has come (`all`: every one, the daemon stopping).
    public func writeDueTouchpadFrames(now: Int64, all: Bool = false) throws(Errno) {
        guard let touchpad else { return }
        for batch in all ? touchpadPace.drain(now: now) : touchpadPace.take(now: now) { try write(batch, to: touchpad) }
    }

    private func write(_ frame: [InputEvent], to touchpad: UinputDevice) throws(Errno) {
        try touchpad.write(frame)
        touchpadPace.wrote(at: monotonicMicroseconds())
    }
}
