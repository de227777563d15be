import Foundation
import Input
import Testing
import TouchCore

/// `ScreenSensor` on a tree shaped like /sys: connectors, their power, backlights under a
/// connector or elsewhere, and what a broken tree says (nothing dark).
@Suite struct ScreenSensorTests {
    /// A connector's directory with its attributes; nil leaves one out.
    func connector(_ tree: TemporaryDirectory, _ entry: String, status: String?, enabled: String? = "enabled", dpms: String? = "On") throws {
        let directory = "\(tree.path)/class/drm/\(entry)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, value) in [("status", status), ("enabled", enabled), ("dpms", dpms)] {
            if let value { try "\(value)\n".write(toFile: "\(directory)/\(name)", atomically: true, encoding: .utf8) }
        }
    }

    /// A backlight whose device sits at `devicePath` (under /sys/devices), linked from class/backlight.
    func backlight(_ tree: TemporaryDirectory, _ name: String, under devicePath: String, power: String) throws {
        let device = "\(tree.path)/devices/\(devicePath)/\(name)"
        try FileManager.default.createDirectory(atPath: device, withIntermediateDirectories: true)
        try "\(power)\n".write(toFile: "\(device)/bl_power", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: "\(tree.path)/class/backlight", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(tree.path)/class/backlight/\(name)", withDestinationPath: "../../devices/\(devicePath)/\(name)")
    }

    @Test func connectorsSayWhichScreensAreLit() throws {
        let tree = try TemporaryDirectory()
        try connector(tree, "card0-eDP-1", status: "connected")
        try connector(tree, "card0-HDMI-A-1", status: "connected", dpms: "Off")
        try connector(tree, "card0-DP-1", status: "disconnected")
        try connector(tree, "card1-Virtual-1", status: "connected", enabled: "disabled")
        try FileManager.default.createDirectory(atPath: "\(tree.path)/class/drm/card0", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(tree.path)/class/drm/renderD128", withIntermediateDirectories: true)
        try "v\n".write(toFile: "\(tree.path)/class/drm/version", atomically: true, encoding: .utf8)
        let screens = ScreenSensor(root: tree.path).read()
        #expect(screens.description == "HDMI-A-1=off eDP-1=on Virtual-1=unused")
        #expect(!screens.isDark(forOutput: nil) && screens.isDark(forOutput: "HDMI-A-1"))
    }

    @Test func aBacklightDarkensItsConnectorsScreenOrElseTheBuiltInOne() throws {
        let tree = try TemporaryDirectory()
        try connector(tree, "card0-eDP-1", status: "connected")
        try connector(tree, "card0-HDMI-A-1", status: "connected")
        try backlight(tree, "intel_backlight", under: "pci0000:00/0000:00:02.0/drm/card0/card0-HDMI-A-1", power: "4")
        #expect(ScreenSensor(root: tree.path).read().description == "HDMI-A-1=off eDP-1=on")
        let acpi = try TemporaryDirectory()
        try connector(acpi, "card0-eDP-1", status: "connected")
        try connector(acpi, "card0-HDMI-A-1", status: "connected")
        try backlight(acpi, "acpi_video0", under: "pci0000:00/0000:00:02.0", power: "4")
        try backlight(acpi, "other", under: "platform/backlight", power: "0")
        #expect(ScreenSensor(root: acpi.path).read().description == "HDMI-A-1=on eDP-1=off")
    }

    /// The attributes stay open: what the kernel says next is read from them (written
    /// in place here, as sysfs changes its files); a connector that comes is found by
    /// `rescan`, as udev's DRM events make the daemon do.
    @Test func theOpenAttributesSayWhatChangedAndARescanFindsWhatCame() throws {
        let tree = try TemporaryDirectory()
        try connector(tree, "card0-eDP-1", status: "connected")
        let sensor = ScreenSensor(root: tree.path)
        #expect(sensor.read().description == "eDP-1=on")
        let dpms = FileHandle(forWritingAtPath: "\(tree.path)/class/drm/card0-eDP-1/dpms")!
        dpms.write("Off\n".data(using: .utf8)!)
        #expect(sensor.read().description == "eDP-1=off")
        try connector(tree, "card0-HDMI-A-1", status: "connected")
        #expect(sensor.read().description == "eDP-1=off")
        sensor.rescan()
        #expect(sensor.read().description == "HDMI-A-1=on eDP-1=off")
        try FileManager.default.removeItem(atPath: "\(tree.path)/class/drm/card0-HDMI-A-1")
        sensor.rescan()
        #expect(sensor.read().description == "eDP-1=off")
    }

    /// No tree, attributes missing, unreadable or strange: nothing is taken for dark on a guess.
    @Test func aBrokenTreeSaysNoScreenIsDark() throws {
        #expect(ScreenSensor(root: "/nonexistent").read().screens.isEmpty)
        let tree = try TemporaryDirectory()
        try connector(tree, "card0-eDP-1", status: "connected", enabled: nil, dpms: nil)
        try connector(tree, "card0-DP-1", status: nil)
        try connector(tree, "card-x", status: "connected")
        try connector(tree, "cardX-DP-2", status: "connected")
        try connector(tree, "card0-", status: "connected")
        // A FIFO where an attribute should be: not read (it would block).
        #expect(mkfifo("\(tree.path)/class/drm/card0-eDP-1/dpms", 0o600) == 0)
        try backlight(tree, "bl", under: "x", power: String(repeating: "9", count: 10_000))
        let screens = ScreenSensor(root: tree.path).read()
        #expect(screens.description == "eDP-1=on")
    }
}
