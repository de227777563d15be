import Config
import ConfigParsing
import Pipeline
import Testing
import TouchCore

/// Every way the daemon can use a device, and what a reload does to one it has open.
@Suite struct PanelPolicyTests {
    static func panel(_ name: String, slotted: Bool = true) -> DeviceDescription {
        var axes = [AbsoluteAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 4095, resolution: 16),
                    AbsoluteAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 4095, resolution: 16)]
        if slotted { axes.append(AbsoluteAxis(code: AbsCode.mtSlot, minimum: 0, maximum: 9)) }
        return DeviceDescription(name: name, axes: axes)
    }

    let elan = panel("ELAN Touchscreen")
    let protocolA = panel("Old Panel", slotted: false)
    let keyboard = DeviceDescription(name: "AT Keyboard")

    func config(_ text: String) throws -> Configuration { try Configuration.parse(text, file: "test.toml") }
    var plain: Configuration { get throws { try config("") } }
    var isolating: Configuration { get throws { try config("[daemon]\nisolate = true\n") } }

    @Test func aNewPanelIsReadAndIsolatedAsConfigured() throws {
        #expect(PanelPolicy.use(elan, isTwin: false, config: try plain, mode: .service) == .read(notIsolatedBecause: nil))
        #expect(PanelPolicy.use(elan, isTwin: false, config: try isolating, mode: .service) == .isolated)
        let onlyOthers = try config("[daemon]\nisolate = true\n[[device]]\nname = \"ELAN*\"\nisolate = false\n")
        #expect(PanelPolicy.use(elan, isTwin: false, config: onlyOthers, mode: .service) == .read(notIsolatedBecause: nil))
    }

    @Test func ignoredDevicesSayWhy() throws {
        let ignoring = try config("[[device]]\nname = \"ELAN*\"\nignore = true\n")
        #expect(PanelPolicy.use(elan, isTwin: false, config: ignoring, mode: .service) == .ignored(.rule))
        #expect(PanelPolicy.use(elan, isTwin: true, config: try isolating, mode: .service) == .ignored(.twin))
        #expect(PanelPolicy.use(keyboard, isTwin: false, config: try plain, mode: .monitor) == .ignored(.noPositionAxes))
    }

    @Test func aProtocolAPanelIsReadNotIsolatedAndSaysSo() throws {
        guard case .read(let why?) = PanelPolicy.use(protocolA, isTwin: false, config: try isolating, mode: .service) else {
            Issue.record("a protocol A panel should be read, with why it is not isolated")
            return
        }
        #expect(why.contains("protocol A"))
    }

    @Test func aMonitorNeverIsolates() throws {
        #expect(PanelPolicy.use(elan, isTwin: false, config: try isolating, mode: .monitor) == .read(notIsolatedBecause: nil))
        #expect(PanelPolicy.reload(elan, from: try plain, to: try isolating, mode: .monitor) == .keep)
        #expect(PanelPolicy.reload(elan, from: try isolating, to: try isolating, mode: .monitor) == .keep)
    }

    @Test func aFailedTwinIsReadWithTheReasonAndKeptOnAReloadThatChangesNothing() throws {
        guard case .read(let why?) = PanelPolicy.twinFailed("permission denied") else {
            Issue.record("a failed twin should leave the panel read, with the reason")
            return
        }
        #expect(why.contains("permission denied") && why.contains("/dev/uinput"))
        #expect(PanelPolicy.reload(elan, from: try isolating, to: try isolating, mode: .service) == .keep)
    }

    @Test func aReloadKeepsWhatItDoesNotChange() throws {
        let moreGestures = try config("[daemon]\nisolate = true\n[[gesture]]\nname = \"t\"\ntype = \"tap\"\n")
        #expect(PanelPolicy.reload(elan, from: try isolating, to: moreGestures, mode: .service) == .keep)
        #expect(PanelPolicy.reload(elan, from: try plain, to: try plain, mode: .service) == .keep)
    }

    @Test func aReloadThatChangesIsolationReopens() throws {
        #expect(PanelPolicy.reload(elan, from: try plain, to: try isolating, mode: .service) == .reopen(because: "to be isolated now"))
        #expect(PanelPolicy.reload(elan, from: try isolating, to: try plain, mode: .service) == .reopen(because: "no longer isolated"))
        // Protocol A panels are never isolated: nothing to reopen for.
        #expect(PanelPolicy.reload(protocolA, from: try plain, to: try isolating, mode: .service) == .keep)
    }

    @Test func aReloadThatIgnoresAPanelLetsItGo() throws {
        let ignoring = try config("[[device]]\nname = \"ELAN*\"\nignore = true\n")
        #expect(PanelPolicy.reload(elan, from: try isolating, to: ignoring, mode: .service) == .letGo(because: "ignored by a [[device]] rule now"))
        #expect(PanelPolicy.reload(elan, from: try plain, to: ignoring, mode: .monitor) == .letGo(because: "ignored by a [[device]] rule now"))
    }
}
