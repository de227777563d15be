import CEvdev
#if canImport(Glibc)
import Glibc
#endif
import SystemIO
import SystemPackage
import TouchCore

/// A touchscreen opened through libevdev: read-only, non-blocking, close-on-exec, with
/// kernel timestamps on the monotonic clock. Only translates: events go to the decoder.
public final class EvdevDevice {
    public let path: String
    public let fd: FileDescriptor
    public let description: DeviceDescription
    private let device: OpaquePointer
    /// For the twin's creation (UinputDevice.swift).
    var handle: OpaquePointer { device }
    /// Outlives `device`: properties are released after `deinit` has freed it.
    private let messages: LibevdevMessages

    /// What reading found besides events.
    public enum ReadEnd {
        /// Nothing more to read now.
        case drained
        /// As `drained`, after events were lost and the state resynced.
        case resynced
        /// The device is gone (unplugged): its touches must be cancelled.
        case removed
    }

    /// `onMessage` gets what libevdev says about the device, a line at a time: mostly
    /// kernel or device bugs (a tracking id reused in a slot), which a device sending
    /// garbage can say thousands of times a second, so the caller decides what to log.
    public init(path: String, onMessage: @escaping (String) -> Void) throws(Errno) {
        self.path = path
        messages = LibevdevMessages(onMessage)
        do {
            fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.nonBlocking, .closeOnExec])
        } catch {
            throw error as? Errno ?? .ioError
        }
        var handle: OpaquePointer?
        let rc = libevdev_new_from_fd(fd.rawValue, &handle)
        guard rc == 0, let handle else {
            Syscall.release(fd)
            throw Errno(rawValue: -rc)
        }
        device = handle
        // Only now: setting the fd keeps the log function but forgets its data.
        libevdev_set_device_log_function(device, LibevdevMessages.receive, LIBEVDEV_LOG_ERROR,
                                         Unmanaged.passUnretained(messages).toOpaque())
        let clock = libevdev_set_clock_id(device, CLOCK_MONOTONIC)
        guard clock == 0 else {
            libevdev_free(handle)
            Syscall.release(fd)
            throw Errno(rawValue: -clock)
        }
        var axes: [AbsoluteAxis] = []
        for code in [AbsCode.x, AbsCode.y, AbsCode.mtSlot, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingID] {
            guard let info = libevdev_get_abs_info(device, UInt32(code))?.pointee else { continue }
            axes.append(AbsoluteAxis(code: code, minimum: info.minimum, maximum: info.maximum, resolution: info.resolution))
        }
        let isPen = [KeyCode.btnToolPen, KeyCode.btnToolRubber].contains { libevdev_has_event_code(handle, UInt32(EV_KEY), UInt32($0)) == 1 }
        description = DeviceDescription(
            name: libevdev_get_name(device).map { String(cString: $0) } ?? "unnamed device",
            bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(device)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(device)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(device)),
            axes: axes,
            tool: isPen ? .pen : .finger)
    }

    /// A switch's position as the kernel holds it (1 on, 0 off); nil when the device has
    /// no such switch.
    public func switchState(_ code: UInt16) -> Int32? {
        guard libevdev_has_event_code(device, UInt32(EventType.sw), UInt32(code)) == 1 else { return nil }
        return libevdev_get_event_value(device, UInt32(EventType.sw), UInt32(code))
    }

    /// The whole description, for a recording that `evemu-device` can make a device from.
    public var evemuDevice: EvemuDevice {
        let properties = (0...UInt16(INPUT_PROP_MAX)).filter { libevdev_has_property(device, UInt32($0)) == 1 }
        let types = (0...UInt16(EV_MAX)).filter { libevdev_has_event_type(device, UInt32($0)) == 1 }
        let masks = types.map { type in
            let maximum = max(0, libevdev_event_type_get_max(UInt32(type)))
            let codes = (0...UInt16(maximum)).filter { libevdev_has_event_code(device, UInt32(type), UInt32($0)) == 1 }
            return EvemuDevice.CodeMask(type: type, codes: type == EventType.syn ? types : codes)
        }
        let axes = (0...UInt16(ABS_MAX)).compactMap { code -> EvemuDevice.Axis? in
            guard let info = libevdev_get_abs_info(device, UInt32(code))?.pointee else { return nil }
            return EvemuDevice.Axis(code: code, minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz,
                                    flat: info.flat, resolution: info.resolution)
        }
        return EvemuDevice(name: description.name, bus: description.bus, vendor: description.vendor,
                           product: description.product,
                           version: UInt16(truncatingIfNeeded: libevdev_get_id_version(device)),
                           properties: properties, masks: masks, axes: axes)
    }

    /// The contacts and current slot the kernel holds now, to start decoding from.
    public var touchState: KernelTouchState {
        let slots = libevdev_get_num_slots(device)
        if slots > 0 {
            let contacts = (0..<UInt32(slots)).map { slot in
                KernelTouchState.Contact(trackingID: libevdev_get_slot_value(device, slot, UInt32(AbsCode.mtTrackingID)),
                                         x: libevdev_get_slot_value(device, slot, UInt32(AbsCode.mtPositionX)),
                                         y: libevdev_get_slot_value(device, slot, UInt32(AbsCode.mtPositionY)))
            }
            return KernelTouchState(currentSlot: Int(libevdev_get_current_slot(device)), contacts: contacts)
        }
        // Single touch: BTN_TOUCH and ABS_X/ABS_Y (protocol A has no state to take).
        let down = libevdev_get_event_value(device, UInt32(EventType.key), UInt32(KeyCode.btnTouch)) != 0
        return KernelTouchState(currentSlot: 0, contacts: [
            KernelTouchState.Contact(trackingID: down ? 0 : -1,
                                     x: libevdev_get_event_value(device, UInt32(EventType.abs), UInt32(AbsCode.x)),
                                     y: libevdev_get_event_value(device, UInt32(EventType.abs), UInt32(AbsCode.y))),
        ])
    }

    deinit {
        libevdev_free(device)
        Syscall.release(fd)
    }

    /// Reads every pending event. After SYN_DROPPED, libevdev's sync events (the state as
    /// it is now, as libinput resyncs) are passed on instead of the lost ones, so touches
    /// that vanished meanwhile end.
    public func read(_ handle: (InputEvent) -> Void) -> ReadEnd {
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        var resynced = false
        while true {
            let rc = libevdev_next_event(device, flags, &event)
            switch rc {
            case Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue):
                handle(InputEvent(event))
            case Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue):
                // The SYN_DROPPED itself (normal mode), then each sync event (sync mode).
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    handle(InputEvent(event))
                }
                flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                resynced = true
            case -EAGAIN:
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue  // sync done: back to normal events
                    continue
                }
                return resynced ? .resynced : .drained
            default:
                return .removed  // -ENODEV, or a read error: treat the device as gone
            }
        }
    }
}

/// Where libevdev's log lines for one device go: its C callback, formatted.
private final class LibevdevMessages {
    let handler: (String) -> Void

    init(_ handler: @escaping (String) -> Void) { self.handler = handler }

    static let receive: libevdev_device_log_func_t = { _, _, data, _, _, _, format, arguments in
        guard let data, let format, let arguments else { return }
        var line = [CChar](repeating: 0, count: 256)
        _ = vsnprintf(&line, line.count, format, arguments)
        var text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        while text.last?.isNewline == true { text.removeLast() }
        Unmanaged<LibevdevMessages>.fromOpaque(data).takeUnretainedValue().handler(text)
    }
}

extension InputEvent {
    init(_ event: input_event) {
        self.init(time: Timestamp(microseconds: Int64(event.time.tv_sec) * 1_000_000 + Int64(event.time.tv_usec)),
                  type: event.type, code: event.code, value: event.value)
    }
}
