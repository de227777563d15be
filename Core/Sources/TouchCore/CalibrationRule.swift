/// The udev rule `gestured calibrate` writes for one panel: LIBINPUT_CALIBRATION_MATRIX,
/// which libinput reads when it adds the device (the compositor's, X's), which gestured's
/// twin copies, and which gestured applies to its own positions.
public enum CalibrationRule {
    public static let directory = "/etc/udev/rules.d"

    /// One file per panel, named after where it is plugged in (or its name): calibrating
    /// again replaces it; after libinput's and the distribution's rules (99).
    public static func fileName(name: String, phys: String) -> String {
        let words = (phys.isEmpty ? name : phys).lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        let slug = String(words.joined(separator: "-").prefix(64))
        return "99-gestured-calibration-\(slug.isEmpty ? "panel" : slug).rules"
    }

    /// The rule: the panel by its name and phys (its twin's phys differs: it takes the
    /// matrix by gestured's copy, never twice).
    public static func text(name: String, phys: String, matrix: CalibrationMatrix) -> String {
        """
        # Written by `gestured calibrate` for '\(printable(name))' (\(phys.isEmpty ? "no phys" : printable(phys))).
        # Calibrate again to replace it; remove this file for none. libinput reads the matrix
        # when a device is added: restart the desktop, or unplug and plug the panel, if the
        # gestured service does not isolate it (then gestured makes its twin anew).
        SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="\(pattern(name))", ATTRS{phys}=="\(pattern(phys))", ENV{LIBINPUT_CALIBRATION_MATRIX}="\(matrix)"

        """
    }

    /// A value as a udev match: the characters a match reads as a pattern (* ? [ ] |), and
    /// those a quoted value cannot hold, match any one character (`?`).
    static func pattern(_ value: String) -> String {
        String(value.unicodeScalars.map { scalar -> Character in
            if "*?[]|\"\\".unicodeScalars.contains(scalar) || scalar.properties.generalCategory == .control { return "?" }
            return Character(scalar)
        })
    }

    private static func printable(_ value: String) -> String {
        String(value.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
    }
}
