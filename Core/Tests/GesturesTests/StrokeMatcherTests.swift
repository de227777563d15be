import Foundation
import Gestures
import Pipeline
import Testing
import TouchCore

/// A path through corner points (mm, y down), a point a millimetre.
func polyline(_ corners: [(Double, Double)], scale: Double = 1, turn degrees: Double = 0) -> [Point] {
    let c = cos(degrees * .pi / 180), s = sin(degrees * .pi / 180)
    let points = corners.map { Point(x: ($0.0 * c - $0.1 * s) * scale, y: ($0.0 * s + $0.1 * c) * scale) }
    var path = [points[0]]
    for (a, b) in zip(points, points.dropFirst()) {
        let steps = max(1, Int(a.distance(to: b)))
        for i in 1...steps { path.append(a + (b - a) * (Double(i) / Double(steps))) }
    }
    return path
}

let zed = [(0.0, 0.0), (30.0, 0.0), (0.0, 30.0), (30.0, 30.0)]
let tick = [(0.0, 0.0), (10.0, 12.0), (35.0, -25.0)]

func learned(_ name: String, _ corners: [(Double, Double)], minSimilarity: Double = 0.75) -> GestureSpec {
    gesture(name, .stroke) {
        $0.templates = [StrokeTemplate(shape: name, path: polyline(corners))!]
        $0.minSimilarity = minSimilarity
    }
}

@Suite struct StrokeTemplateTests {
    @Test func theTextFormKeepsTheShape() throws {
        let t = try #require(StrokeTemplate(shape: "zed", path: polyline(zed)))
        #expect(t.text.count == 128 && t.text.allSatisfy(\.isHexDigit))
        let back = try #require(StrokeTemplate(shape: "zed", text: Substring(t.text)))
        #expect(StrokeMatcher.similarity(t, back) > 0.99)
        #expect(StrokeTemplate(shape: "zed", text: Substring(t.text.dropLast())) == nil)
        #expect(StrokeTemplate(shape: "zed", text: Substring("g" + t.text.dropFirst())) == nil)
        #expect(StrokeTemplate(shape: "zed", text: Substring(String(repeating: "0", count: 128))) == nil)
        #expect(StrokeTemplate(shape: "dot", path: [Point(x: 1, y: 1), Point(x: 1, y: 1)]) == nil)
    }

    @Test func positionAndSizeDoNotMatterOrientationDoes() throws {
        let t = try #require(StrokeTemplate(shape: "zed", path: polyline(zed)))
        func similarity(scale: Double = 1, turn: Double = 0) -> Double {
            StrokeMatcher.similarity(t, StrokeTemplate(shape: "zed", path: polyline(zed, scale: scale, turn: turn).map { $0 + Point(x: 70, y: 20) })!)
        }
        #expect(similarity(scale: 3) > 0.99)
        #expect(similarity(turn: 15) > 0.99)  // within the 20° it may be turned to fit
        #expect(similarity(turn: 45) < 0.8)
        #expect(similarity(turn: 90) < 0.4)
    }
}

@Suite struct LearnedStrokeTests {
    @Test func aLearnedShapeFiresAnywhereAndAtAnySize() {
        let specs = [learned("zed", zed)]
        #expect(run(stroke(zed), specs) == ["zed recognized"])
        #expect(run(stroke(zed.map { ($0.0 * 2, $0.1 * 2) }, from: (20, 20)), specs) == ["zed recognized"])
        #expect(run(stroke(tick), specs).isEmpty)
    }

    @Test func aLearnedShapeWinsOverABuiltInItResembles() {
        // A tick learned from exactly this stroke is closer than any built-in checkmark template.
        let specs = [gesture("checkmark", .checkmark), learned("tick", tick)]
        #expect(run(stroke(tick), specs) == ["tick recognized"])
        #expect(reasons(stroke(tick), specs).first?.hasPrefix("checkmark: closer to learned 'tick' than to a checkmark") == true)
        // Without the learned shape, the same stroke is a checkmark.
        #expect(run(stroke(tick), [gesture("checkmark", .checkmark)]) == ["checkmark recognized"])
    }

    @Test func theClosestLearnedShapeWins() {
        let specs = [learned("zed", zed), learned("tick", tick)]
        #expect(run(stroke(zed), specs) == ["zed recognized"])
        #expect(reasons(stroke(zed), specs).first?.hasPrefix("tick: closer to learned 'zed' than to learned 'tick'") == true)
    }

    @Test func tooFarFromItsExamplesIsNotTheShape() {
        let sloppy = [(0.0, 0.0), (30.0, 6.0), (0.0, 26.0), (30.0, 34.0)]
        let why = reasons(stroke(sloppy), [learned("zed", zed, minSimilarity: 0.99)])
        #expect(why.count == 1 && why[0].hasPrefix("zed: similarity 0.") && why[0].hasSuffix("to 'zed', needs 0.99"))
        #expect(reasons(stroke([(0, 0), (3, 0), (0, 3)]), [learned("zed", zed)]) == ["zed: stroke 3 mm across, needs 10 mm"])
    }

    @Test func theExplanationNamesTheRunnerUp() {
        var notes: [String] = []
        _ = run(stroke(zed), [learned("zed", zed), learned("tick", tick)]) { if $0.from == $0.to { notes.append($0.reason) } }
        #expect(notes.contains { $0.hasPrefix("closest learned shape (1.00), then learned 'tick' (") })
    }

    /// Point clouds: the order and direction of drawing do not matter, the orientation does.
    @Test func aLearnedShapeDrawnBackwardsIsStillItButNotItsMirror() {
        let bracket = [(20.0, 0.0), (0.0, 0.0), (0.0, 40.0), (20.0, 40.0)]
        let specs = [learned("left", bracket), learned("right", bracket.map { (20 - $0.0, $0.1) })]
        #expect(run(stroke(bracket), specs) == ["left recognized"])
        #expect(run(stroke(bracket.reversed()), specs) == ["left recognized"])
        #expect(run(stroke(bracket.map { (20 - $0.0, $0.1) }.reversed()), specs) == ["right recognized"])
    }
}

@Suite struct HeldOutTests {
    @Test func aPersonsTemplatesCanBeLeftOut() throws {
        let drawn = StrokeTemplate(shape: "zed", person: "ann", path: polyline(zed))!
        let matcher = StrokeMatcher(builtIn: StrokeTemplateSet([drawn]), bound: ["zed"], learned: [])
        #expect(!matcher.leavesOutAny)
        matcher.leftOutPerson = "ann"
        #expect(matcher.leavesOutAny)
        matcher.leftOutPerson = "bob"
        #expect(!matcher.leavesOutAny)
    }
}

@Suite struct LearningTests {
    @Test func theMostTypicalExampleComesFirstThenTheWaysItDoesNotCover() {
        let zeds = (0..<4).map { i in StrokeTemplate(shape: "zed", path: polyline(zed.map { ($0.0, $0.1 + Double(i) * ($0.0 > 0 ? 1 : -1)) }))! }
        let odd = StrokeTemplate(shape: "zed", path: polyline(tick))!
        #expect(!StrokeLearning.representatives(zeds + [odd], keep: 1).contains(odd))
        let two = StrokeLearning.representatives(zeds + [odd], keep: 2)
        #expect(two.count == 2 && two.contains(odd))
        #expect(StrokeLearning.representatives(zeds, keep: 10) == zeds)
    }
}

@Suite struct ConfusionTests {
    /// `learn --beside`: a shape learned from another's strokes is said to be too close.
    @Test func aShapeTooCloseToALearnedOneIsSaid() {
        let bracket = [(20.0, 0.0), (0.0, 0.0), (0.0, 40.0), (20.0, 40.0)]
        func examples(_ points: [(Double, Double)], _ name: String) -> [StrokeTemplate] {
            (0..<3).map { k in StrokeTemplate(shape: name, path: polyline(points.map { ($0.0 + Double(k), $0.1 - Double(k)) }))! }
        }
        var left = GestureSpec(name: "left", type: .stroke)
        left.templates = examples(bracket, "left")
        let again = StrokeLearning.confusions(of: "other", examples: examples(bracket, "other"), minSimilarity: 0.75, beside: [left])
        #expect(!again.isEmpty && again.allSatisfy { $0.contains("would fire learned") })
        let mirror = StrokeLearning.confusions(of: "right", examples: examples(bracket.map { (20 - $0.0, $0.1) }, "right"), minSimilarity: 0.75, beside: [left])
        #expect(mirror.isEmpty)
    }
}
