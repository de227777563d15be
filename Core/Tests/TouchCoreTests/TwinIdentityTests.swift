import Testing
import TouchCore

/// What a twin takes of its panel's udev properties, and what it never takes.
@Suite struct TwinIdentityTests {
    @Test func theCalibrationOutputPathAndGroupAreCopiedAndNothingElse() {
        let panel: [(key: String, value: String)] = [
            ("DEVNAME", "/dev/input/event5"), ("ID_INPUT", "1"), ("ID_INPUT_TOUCHSCREEN", "1"),
            ("LIBINPUT_CALIBRATION_MATRIX", "0 1 0 -1 0 1"), ("LIBINPUT_DEVICE_GROUP", "3/1234/5678:usb-1"),
            ("LIBINPUT_ATTR_SIZE_HINT", "200x120"), ("LIBINPUT_IGNORE_DEVICE", "0"),
            ("WL_OUTPUT", "eDP-1"), ("WL_SEAT", "seat1"), ("ID_SEAT", "seat1"),
            ("ID_PATH", "pci-0000:00:15.1-platform-i2c_designware.1"), ("ID_PATH_TAG", "pci-0000_00_15_1-platform-i2c_designware_1"),
            ("TAGS", ":seat:"), ("ID_VENDOR_ID", "1234"),
        ]
        #expect(TwinIdentity.lines(panel) == [
            "LIBINPUT_CALIBRATION_MATRIX=0 1 0 -1 0 1", "LIBINPUT_DEVICE_GROUP=3/1234/5678:usb-1", "LIBINPUT_ATTR_SIZE_HINT=200x120",
            "WL_OUTPUT=eDP-1", "WL_SEAT=seat1", "ID_SEAT=seat1", "ID_PATH=pci-0000:00:15.1-platform-i2c_designware.1",
            "ID_PATH_TAG=pci-0000_00_15_1-platform-i2c_designware_1",
        ])
    }

    /// A value that would forge another property, a key udev would not write, a flood.
    @Test func whatCouldForgeOrFloodIsLeftOut() {
        let hostile: [(key: String, value: String)] = [
            ("WL_OUTPUT", "eDP-1\nLIBINPUT_IGNORE_DEVICE=1"), ("LIBINPUT_X=Y", "1"), ("LIBINPUT_lower", "1"),
            ("ID_PATH", String(repeating: "p", count: 5000)),
        ] + (0..<1000).map { ("LIBINPUT_ATTR_\($0)", "1") }
        let lines = TwinIdentity.lines(hostile)
        #expect(lines.count == TwinIdentity.mostProperties && lines.first == "LIBINPUT_ATTR_0=1")
    }
}
