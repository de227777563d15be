import Config
import ConfigParsing
import Gestures
import Testing
import TouchCore

@Suite struct IsolationConfigTests {
    let panel = DeviceDescription(name: "ELAN Touchscreen", vendor: 0x04f3, product: 0x2a1c, axes: [])
    let other = DeviceDescription(name: "Atmel maXTouch", axes: [])

    @Test func offByDefaultWithUIKitsDeliveryDefaults() throws {
        let config = try parse("[[gesture]]\nname = \"t\"\ntype = \"tap\"\n")
        #expect(!config.asksToIsolate(panel))
        #expect(config.daemon.maxDelayMS == 1000)
        let spec = try #require(config.gestures.first)
        #expect(spec.cancelsTouches && !spec.delaysTouchesBegan && spec.delaysTouchesEnded)
    }

    @Test func onForAllWithADeviceRuleOverridingIt() throws {
        let config = try parse("""
            [daemon]
            isolate = true
            max_delay_ms = 250
            [[device]]
            name = "Atmel*"
            isolate = false
            [[gesture]]
            name = "menu"
            type = "swipe"
            cancels_touches = false
            delays_touches_began = true
            delays_touches_ended = false
            """)
        #expect(config.asksToIsolate(panel))
        #expect(!config.asksToIsolate(other))
        #expect(config.daemon.maxDelayMS == 250)
        let spec = try #require(config.gestures.first)
        #expect(!spec.cancelsTouches && spec.delaysTouchesBegan && !spec.delaysTouchesEnded)
    }

    @Test func wrongValuesAreLocated() {
        #expect(errors("[daemon]\nisolate = \"yes\"\n") == ["test.toml:2: error: daemon.isolate: expected true or false, found a string"])
        #expect(errors("[daemon]\nmax_delay_ms = 100000\n").first?.contains("at most 60000") == true)
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\ndelays_touches_began = 1\n").first?
            .contains("gesture[1].delays_touches_began: expected true or false") == true)
    }
}
