import SystemIO
import TouchCore

/// Whether each screen is lit, as the kernel says in sysfs: each DRM connector
/// (`class/drm/card0-eDP-1`) that is `connected`, in use when `enabled` (a CRTC drives
/// it), lit when its `dpms` is also `On`, and dark when a backlight of it has `bl_power`
/// other than 0 (a backlight whose
/// device sits under a connector is that connector's; another, such as ACPI's, the
/// built-in screen's). Read when a touch begins: a few small files, each bounded, and a
/// file that cannot be read says nothing (the screen stays lit: never taken for dark on
/// a guess).
public struct ScreenSensor: Sendable {
    /// `/sys`, or a test's tree shaped like it.
    public let root: String

    /// More entries than a machine has: the rest are not looked at.
    static let mostEntries = 128

    public init(root: String = "/sys") { self.root = root }

    public func read() -> Screens {
        let drm = "\(root)/class/drm"
        var screens: [Screens.Screen] = []
        for entry in ((try? Files.names(in: drm, atMost: Self.mostEntries)) ?? []).sorted() {
            guard let name = Self.connectorName(entry), attribute("\(drm)/\(entry)/status") == "connected" else { continue }
            let inUse = attribute("\(drm)/\(entry)/enabled").map { $0 != "disabled" } ?? true
            let dpmsOn = attribute("\(drm)/\(entry)/dpms").map { $0 == "On" } ?? true
            screens.append(Screens.Screen(name: name, lit: dpmsOn, inUse: inUse))
        }
        for (connector, powered) in backlights() where !powered {
            let index = connector.flatMap { c in screens.firstIndex { $0.name == c } } ?? screens.firstIndex(where: \.isBuiltIn)
            if let index { screens[index].lit = false }
        }
        return Screens(screens)
    }

    /// Each backlight: the connector it belongs to (nil: none says), and whether it is
    /// powered (`bl_power` 0, FB_BLANK_UNBLANK).
    private func backlights() -> [(connector: String?, powered: Bool)] {
        let directory = "\(root)/class/backlight"
        return ((try? Files.names(in: directory, atMost: Self.mostEntries)) ?? []).compactMap { entry in
            guard let power = attribute("\(directory)/\(entry)/bl_power") else { return nil }
            // class/backlight/NAME links to the device's path; its parent is the connector for a GPU's own.
            let target = (try? Syscall.readLink("\(directory)/\(entry)")) ?? ""
            let parent = target.split(separator: "/").dropLast().last.map(String.init)
            return (parent.flatMap(Self.connectorName), power == "0")
        }
    }

    /// `card0-eDP-1` → `eDP-1`; nil for a card itself (`card0`), a render node, `version`.
    static func connectorName(_ entry: String) -> String? {
        guard entry.hasPrefix("card"), let dash = entry.firstIndex(of: "-") else { return nil }
        let number = entry[entry.index(entry.startIndex, offsetBy: 4)..<dash]
        guard !number.isEmpty, number.allSatisfy(\.isNumber) else { return nil }
        let name = entry[entry.index(after: dash)...]
        return name.isEmpty ? nil : String(name)
    }

    /// A sysfs attribute's first line without its whitespace (the kernel's words have
    /// none: `connected`, `On`, `4`); nil when it cannot be read.
    private func attribute(_ path: String) -> String? {
        guard let bytes = try? Files.read(path, atMost: 4096) else { return nil }
        let line = bytes.prefix { $0 != 0x0a }
        return String(decoding: line, as: UTF8.self).filter { !$0.isWhitespace }
    }
}
