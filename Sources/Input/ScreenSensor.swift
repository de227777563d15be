#if canImport(Glibc)
import Glibc
#endif
import SystemIO
import SystemPackage
import TouchCore

/// Whether each screen is lit, as the kernel says in sysfs: each DRM connector
/// (`class/drm/card0-eDP-1`) that is `connected`, in use when `enabled` (a CRTC drives
/// it), lit when its `dpms` is also `On`, and dark when a backlight of it has `bl_power`
/// other than 0 (a backlight whose device sits under a connector is that connector's;
/// another, such as ACPI's, the built-in screen's).
///
/// Read when a touch begins, before its first frame reaches the twin: so the attribute
/// files stay open, found by `rescan()` (at the start, and when udev says a DRM device
/// or a backlight came, changed or went), and each is read again with one pread(2),
/// which makes sysfs say it anew. A file that cannot be read says nothing (the screen
/// stays lit: never taken for dark on a guess).
public final class ScreenSensor {
    /// `/sys`, or a test's tree shaped like it.
    public let root: String

    /// More entries than a machine has: the rest are not looked at.
    static let mostEntries = 128
    /// Longer than any of the kernel's words for these: a longer file is not one of them.
    static let longestAttribute = 64

    private struct Connector {
        var name: String
        var status: FileDescriptor
        var enabled: FileDescriptor?
        var dpms: FileDescriptor?
    }

    private struct Backlight {
        /// The connector it belongs to; nil: none says (the built-in screen's).
        var connector: String?
        var power: FileDescriptor
    }

    private var connectors: [Connector] = []
    private var backlights: [Backlight] = []
    private var buffer = [UInt8](repeating: 0, count: ScreenSensor.longestAttribute)

    public init(root: String = "/sys") {
        self.root = root
        rescan()
    }

    deinit { closeAll() }

    /// Finds the connectors and backlights anew and opens their attributes.
    public func rescan() {
        closeAll()
        let drm = "\(root)/class/drm"
        for entry in ((try? Files.names(in: drm, atMost: Self.mostEntries)) ?? []).sorted() {
            guard let name = Self.connectorName(entry), let status = Self.open("\(drm)/\(entry)/status") else { continue }
            connectors.append(Connector(name: name, status: status,
                                        enabled: Self.open("\(drm)/\(entry)/enabled"), dpms: Self.open("\(drm)/\(entry)/dpms")))
        }
        let directory = "\(root)/class/backlight"
        for entry in (try? Files.names(in: directory, atMost: Self.mostEntries)) ?? [] {
            guard let power = Self.open("\(directory)/\(entry)/bl_power") else { continue }
            // class/backlight/NAME links to the device's path; its parent is the connector for a GPU's own.
            let target = (try? Syscall.readLink("\(directory)/\(entry)")) ?? ""
            let parent = target.split(separator: "/").dropLast().last.map(String.init)
            backlights.append(Backlight(connector: parent.flatMap(Self.connectorName), power: power))
        }
    }

    public func read() -> Screens {
        var screens: [Screens.Screen] = []
        for connector in connectors where attribute(connector.status) == "connected" {
            let inUse = connector.enabled.flatMap(attribute).map { $0 != "disabled" } ?? true
            let dpmsOn = connector.dpms.flatMap(attribute).map { $0 == "On" } ?? true
            screens.append(Screens.Screen(name: connector.name, lit: dpmsOn, inUse: inUse))
        }
        for backlight in backlights where attribute(backlight.power).map({ $0 != "0" }) ?? false {
            let index = backlight.connector.flatMap { c in screens.firstIndex { $0.name == c } } ?? screens.firstIndex(where: \.isBuiltIn)
            if let index { screens[index].lit = false }
        }
        return Screens(screens)
    }

    /// `card0-eDP-1` → `eDP-1`; nil for a card itself (`card0`), a render node, `version`.
    static func connectorName(_ entry: String) -> String? {
        guard entry.hasPrefix("card"), let dash = entry.firstIndex(of: "-") else { return nil }
        let number = entry[entry.index(entry.startIndex, offsetBy: 4)..<dash]
        guard !number.isEmpty, number.allSatisfy(\.isNumber) else { return nil }
        let name = entry[entry.index(after: dash)...]
        return name.isEmpty ? nil : String(name)
    }

    /// An attribute file opened for reading; nil when it cannot be, or is not a regular
    /// file (a FIFO would block). Opened non-blocking, so that a FIFO swapped in cannot
    /// make the open wait for a writer.
    private static func open(_ path: String) -> FileDescriptor? {
        guard let fd = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec, .nonBlocking]) else { return nil }
        guard (try? FileStatus(fd))?.isRegularFile == true else {
            Syscall.release(fd)
            return nil
        }
        return fd
    }

    /// An attribute's first line without its whitespace (the kernel's words have none:
    /// `connected`, `On`, `4`); nil when it cannot be read, or is longer than they are.
    private func attribute(_ fd: FileDescriptor) -> String? {
        let count = buffer.withUnsafeMutableBytes { bytes in
            try? Syscall.call { pread(fd.rawValue, bytes.baseAddress, bytes.count, 0) }
        }
        guard let count, count < buffer.count else { return nil }
        let line = buffer[..<count].prefix { $0 != 0x0a }
        return String(decoding: line, as: UTF8.self).filter { !$0.isWhitespace }
    }

    private func closeAll() {
        for connector in connectors {
            for fd in [connector.status, connector.enabled, connector.dpms].compactMap({ $0 }) { Syscall.release(fd) }
        }
        for backlight in backlights { Syscall.release(backlight.power) }
        connectors.removeAll()
        backlights.removeAll()
    }
}
