import Config
import Gestures
import Testing
import TouchCore

/// `angle = [from, to]`: degrees counter-clockwise from right, a range that may pass 0°,
/// never with a direction, and never sharing an angle with another gesture of the same touches.
@Suite struct AngleConfigTests {
    func swipe(_ name: String, _ setting: String, fingers: Int = 3, mode: String? = nil) -> String {
        "[[gesture]]\nname = \"\(name)\"\ntype = \"swipe\"\nfingers = \(fingers)\n\(setting)\n" + (mode.map { "modes = [\"\($0)\"]\n" } ?? "") + "\n"
    }

    @Test func aRangeHoldsItsFromNotItsToAndMayPassZero() throws {
        let across = try #require(AngleRange(from: 330, to: 30))
        #expect(across.contains(0) && across.contains(330) && across.contains(359.9) && !across.contains(30) && across.width == 60)
        let right = AngleRange(.right), upRight = AngleRange(.upRight)
        #expect(right.contains(0) && !right.contains(30) && upRight.contains(30) && upRight.contains(45))
        #expect(!right.overlaps(upRight) && across.overlaps(right))
        // A movement up and to the right, y downwards as touches are.
        #expect(AngleRange.degrees(of: Point(x: 1, y: -1)) == 45)
        #expect(AngleRange(from: -30, to: 330) == nil && AngleRange(from: 0, to: 360) == nil)
    }

    @Test func anAngleIsTakenForSwipesPansAndEdgeSwipes() throws {
        let config = try parse(swipe("steep", "angle = [15, 45]") + swipe("wide", "angle = [-30, 30]", fingers: 4)
                               + "[[gesture]]\nname = \"up\"\ntype = \"pan\"\nangle = [60, 120]\n\n"
                               + "[[gesture]]\nname = \"pull\"\ntype = \"edge-swipe\"\nedge = \"top\"\nangle = [225, 315]\n")
        #expect(config.gestures.map { $0.angle?.description } == ["15° to 45°", "330° to 30°", "60° to 120°", "225° to 315°"])
    }

    @Test func anAngleWithADirectionOrOfNoWidthIsRefusedAtItsLine() {
        #expect(errors(swipe("both", "direction = \"up\"\nangle = [60, 120]")) == [
            "test.toml:6: error: gesture[1].angle: a gesture goes in a direction or within an angle, not both: leave one out"])
        #expect(errors(swipe("none", "angle = [90, 450]")).first?.contains("expected degrees from -360 to 360") == true)
        #expect(errors(swipe("none", "angle = [90, -270]")).first?.contains("is no range") == true)
        #expect(errors("[[gesture]]\nname = \"t\"\ntype = \"tap\"\nangle = [0, 90]\n").first?.contains("a tap gesture has no angle") == true)
    }

    @Test func twoAnglesOfTheSameTouchesMayMeetButNotOverlap() {
        #expect(errors(swipe("a", "angle = [15, 45]") + swipe("b", "angle = [45, 90]") + swipe("c", "angle = [350, 15]")).isEmpty)
        #expect(errors(swipe("a", "angle = [15, 45]") + swipe("b", "angle = [340, 20]")) == [
            "test.toml:11: error: gesture[2].angle: overlaps \"a\"'s angle (15° to 45°), which takes the same touches: a movement in both would be both's; let them meet (one's to the other's from)"])
        // Other fingers, or another mode: other touches.
        #expect(errors("[daemon]\nmodes = [\"m\"]\n\n" + swipe("a", "angle = [15, 45]") + swipe("b", "angle = [0, 90]", fingers: 4)
                       + swipe("c", "angle = [0, 90]", mode: "m")).isEmpty)
    }
}
