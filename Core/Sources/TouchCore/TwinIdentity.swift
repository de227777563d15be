/// What an isolated panel's twin carries of its panel for udev, libinput and compositors:
/// the properties udev attached to the panel by where it is plugged in, which a rule
/// written for the panel (`ATTRS{phys}`, `ENV{ID_PATH}`, `ATTRS{idVendor}`) cannot give a
/// virtual device. `gestured twin-identity` prints them for 90-gestured-twin.rules.
///
/// - `LIBINPUT_*`: the calibration (`LIBINPUT_CALIBRATION_MATRIX`, copied, never baked
///   into the twin's coordinates), the device group that pairs a pen with its panel, and
///   hwdb's attributes and models (size hints, fuzz); not `LIBINPUT_IGNORE_DEVICE`, which
///   would hide the twin, the one device left for the compositor to read.
/// - `WL_OUTPUT` (the output weston, KWin and libinput's `get_output_name` map a panel
///   to), `WL_SEAT`, `ID_SEAT` (logind's seat).
/// - `ID_PATH`, `ID_PATH_TAG`: where the panel is plugged in, which sway reads to tell a
///   built-in panel (mapped to the built-in display) and seat rules key on.
public enum TwinIdentity {
    public static let copied: Set<String> = ["WL_OUTPUT", "WL_SEAT", "ID_SEAT", "ID_PATH", "ID_PATH_TAG"]
    static let notCopied: Set<String> = ["LIBINPUT_IGNORE_DEVICE"]
    /// More than udev gives a device: a property list is not a place for floods.
    public static let mostProperties = 64
    static let longestValue = 1024

    /// `KEY=VALUE` lines for udev's IMPORT{program}, from the panel's properties: those
    /// copied, with values of one line of printable text (a newline would forge another
    /// property), at most `mostProperties`.
    public static func lines(_ properties: [(key: String, value: String)]) -> [String] {
        var lines: [String] = []
        for (key, value) in properties where lines.count < mostProperties && isCopied(key) {
            guard value.utf8.count <= longestValue, !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { continue }
            lines.append("\(key)=\(value)")
        }
        return lines
    }

    public static func isCopied(_ key: String) -> Bool {
        (copied.contains(key) || key.hasPrefix("LIBINPUT_")) && !notCopied.contains(key)
            && key.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5f }
    }
}
