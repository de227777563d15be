import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// One object per touchscreen, `/org/gestured/Gestured1/devices/event5` (the node's name
/// under /dev/input, escaped as sd-bus escapes path elements), with the interface
/// `org.gestured.Gestured1.Device`: Node, Name, Isolated, Screen (the screen it belongs to
/// and whether it is lit, read when asked), and Rotation, which a compositor's hook writes
/// for the panel of one display.
extension BusService {
    static let devicesPath = "/org/gestured/Gestured1/devices"
    static let deviceInterface = "org.gestured.Gestured1.Device"

    /// The object's path for a device node.
    public static func devicePath(_ node: String) -> String {
        let inputDirectory = "/dev/input/"
        let id = node.hasPrefix(inputDirectory) ? String(node.dropFirst(inputDirectory.count)) : node
        return SDBus.path(under: devicesPath, for: id) ?? devicesPath
    }

    /// Registers the device objects on a new connection.
    func addDeviceObjects(_ bus: OpaquePointer) -> Int32 {
        gestured_bus_add_devices(bus, Self.devicesPath, Self.deviceInterface, { _, path, _, property, reply, userdata, _ in
            guard let path, let property, let reply, let userdata else { return -EINVAL }
            return Unmanaged<BusService>.fromOpaque(userdata).takeUnretainedValue()
                .readDevice(String(cString: path), String(cString: property), into: reply)
        }, { _, path, _, _, value, userdata, error in
            guard let path, let value, let userdata else { return -EINVAL }
            return Unmanaged<BusService>.fromOpaque(userdata).takeUnretainedValue().writeRotation(String(cString: path), from: value, error: error)
        }, { _, path, _, userdata, found, _ in
            guard let path, let userdata else { return 0 }
            let service = Unmanaged<BusService>.fromOpaque(userdata).takeUnretainedValue()
            guard service.device(at: String(cString: path)) != nil else { return 0 }
            found?.pointee = userdata
            return 1
        }, { _, _, userdata, nodes, _ in
            guard let userdata, let nodes else { return -EINVAL }
            let service = Unmanaged<BusService>.fromOpaque(userdata).takeUnretainedValue()
            return BusService.strv(service.control?.deviceNodes.map(BusService.devicePath) ?? [], into: nodes)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The device whose object is at `path`; a few devices, so a walk is enough.
    func device(at path: String) -> ControlProperties.Device? {
        guard let control else { return nil }
        return control.deviceNodes.first { Self.devicePath($0) == path }.flatMap(control.device)
    }

    private func readDevice(_ path: String, _ property: String, into reply: OpaquePointer) -> Int32 {
        guard let device = device(at: path) else { return -ENOENT }
        guard let ok = device.write(property, into: reply) else { return -ENOENT }
        return ok ? 1 : -ENOMEM
    }

    private func writeRotation(_ path: String, from value: OpaquePointer, error reply: SDBus.ErrorOut) -> Int32 {
        guard let control, let device = device(at: path) else { return -ENOENT }
        guard let degrees = ControlArguments.unsigned(value) else { return -EINVAL }
        do { try control.setRotation(degrees, of: device.node) } catch { return SDBus.fail(reply, error.name, error.message) }
        return 1
    }

    /// A NULL-terminated array of `malloc`ed strings, which sd-bus frees.
    private static func strv(_ strings: [String], into result: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
        guard let array = calloc(strings.count + 1, MemoryLayout<UnsafeMutablePointer<CChar>?>.stride)?
            .bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: strings.count + 1) else { return -ENOMEM }
        for (i, string) in strings.enumerated() {
            guard let copy = strdup(string) else {
                for j in 0..<i { free(array[j]) }
                free(array)
                return -ENOMEM
            }
            array[i] = copy
        }
        result.pointee = array
        return 0
    }
}
