import Bindings
import CEvdev

extension KeyCodes {
    /// Every KEY_ and BTN_ name libevdev knows (its tables, generated from the kernel's
    /// headers), read once.
    public static let libevdev: KeyCodes = {
        var byName: [String: UInt16] = [:]
        let keys = UInt32(EV_KEY)
        for code in 0...UInt32(max(0, libevdev_event_type_get_max(keys))) {
            guard let name = libevdev_event_code_get_name(keys, code).map({ String(cString: $0) }) else { continue }
            if byName[name] == nil { byName[name] = UInt16(truncatingIfNeeded: code) }
        }
        return KeyCodes(byName: byName)
    }()
}
