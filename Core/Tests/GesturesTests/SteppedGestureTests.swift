import Bindings
import Config
import ConfigParsing
import Foundation
import Pipeline
import Testing
import TouchCore

/// Steps and wheel turns through the whole pipeline, on kernel events the script writes:
/// what the daemon would perform for these fingers.
@Suite struct SteppedGestureTests {
    static let keyCodes = KeyCodes(byName: ["KEY_VOLUMEUP": 115, "KEY_VOLUMEDOWN": 114, "KEY_LEFTALT": 56])

    func actions(_ script: TouchScript, _ gesture: String) throws -> [String] {
        let config = try Configuration.parse("[[gesture]]\n" + gesture, file: "test.toml", keyCodes: Self.keyCodes)
        var out: [String] = []
        for step in script.steps(config) {
            #expect(step.bugs.isEmpty)
            for action in step.actions.map(\.action) {
                switch action {
                case .keys(_, let keys): out.append(keys.text)
                case .scroll(let turn): out.append("wheel \(turn.vertical) \(turn.horizontal) \(turn.verticalDetents)")
                case .hold(let hold) where hold.moment != .follow: out.append("\(hold.moment.rawValue) \(hold.hold.text)")
                case .run, .signal, .click, .mode, .pause, .touchLock, .hold, .touchpad, .fling: break
                }
            }
        }
        return out
    }

    /// Two fingers 60 mm apart about (150, 100) mm, turned through these angles (degrees).
    func turning(through angles: [Double]) -> TouchScript {
        var s = TouchScript()
        func at(_ a: Double) -> [(Double, Double)] {
            let c = cos(a * .pi / 180), d = sin(a * .pi / 180)
            return [(150 - 30 * c, 100 - 30 * d), (150 + 30 * c, 100 + 30 * d)]
        }
        var last = at(angles[0])
        s.down([1: last[0], 2: last[1]])
        for a in angles.dropFirst() {
            let next = at(a)
            s.move([1: (next[0].0 - last[0].0, next[0].1 - last[0].1), 2: (next[1].0 - last[1].0, next[1].1 - last[1].1)], steps: 1)
            last = next
        }
        s.up(1, 2)
        return s
    }

    static let volume = """
        name = "volume"
        type = "rotate"
        min_rotation = 0.05
        step = 15
        increase = { keys = "VolumeUp" }
        decrease = { keys = "VolumeDown" }
        """

    /// Held from the begin, before its first step, to the end, after its last.
    @Test func aHeldKeyGoesDownAtTheBeginAndUpAtTheEnd() throws {
        let angles = Array(stride(from: 0.0, through: 45, by: 1))
        let held = Self.volume + "\nhold = \"alt\""
        #expect(try actions(turning(through: angles), held) == ["press alt"] + Array(repeating: "VolumeUp", count: 3) + ["release alt"])
    }

    @Test func aQuarterTurnAndBackIsSixUpsThenSixDowns() throws {
        let angles = Array(stride(from: 0.0, through: 90, by: 1)) + Array(stride(from: 89.0, through: 0, by: -1))
        #expect(try actions(turning(through: angles), Self.volume)
            == Array(repeating: "VolumeUp", count: 6) + Array(repeating: "VolumeDown", count: 6))
    }

    @Test func jitteringOneDegreeAboutABoundaryFiresAtMostOnce() throws {
        let angles = Array(stride(from: 0.0, through: 14, by: 1)) + (0..<20).map { 15 + ($0 % 2 == 0 ? 1.0 : -1.0) }
        #expect(try actions(turning(through: angles), Self.volume) == ["VolumeUp"])
    }

    @Test func aPinchOutAndBackStepsInFactors() throws {
        var s = TouchScript()
        s.down([1: (130, 100), 2: (170, 100)])  // 40 mm apart
        s.move([1: (-30, 0), 2: (30, 0)], steps: 30)  // to 100 mm: 2.5 times
        s.move([1: (30, 0), 2: (-30, 0)], steps: 30)  // and back
        s.up(1, 2)
        let pinch = "name = \"zoom\"\ntype = \"pinch\"\nstep = 1.25\nincrease = { keys = \"VolumeUp\" }\ndecrease = { keys = \"VolumeDown\" }\n"
        // 2.5 = 1.25^4.1: four steps up, and the same four back down.
        #expect(try actions(s, pinch) == Array(repeating: "VolumeUp", count: 4) + Array(repeating: "VolumeDown", count: 4))
    }

    @Test func aPanStepsEveryTenMillimetresUpAndAScrollingPanTurnsTheWheelAsFar() throws {
        var up = TouchScript()
        up.down(1, at: (150, 150))
        up.move(1, by: (3, -55), steps: 40)
        up.up(1)
        let stepping = "name = \"slide\"\ntype = \"pan\"\nstep = 10\nincrease = { keys = \"VolumeUp\" }\ndecrease = { keys = \"VolumeDown\" }\n"
        #expect(try actions(up, stepping) == Array(repeating: "VolumeUp", count: 5))

        var down = TouchScript()
        down.down([1: (120, 30), 2: (140, 30)])
        down.move([1: (0, 80), 2: (0, 80)], steps: 57)
        down.up(1, 2)
        let wheel = try actions(down, "name = \"wheel\"\ntype = \"pan\"\nfingers = 2\nscroll = true\n")
        let units = wheel.map { Int($0.split(separator: " ")[1])! }.reduce(0, +)
        let notches = wheel.map { Int($0.split(separator: " ")[3])! }.reduce(0, +)
        #expect(units == 1200 && notches == 10)  // 80 mm at 8 mm a notch, fingers down: the wheel up
    }
}
