import Config
import ConfigParsing
import Gestures
import Pipeline
@testable import Reports
import Testing
import TouchCore

let description = "N: Test Panel\nA: 35 0 1000 0 0 10\nA: 36 0 1000 0 0 10\nA: 2f 0 9 0 0 0\n"

/// An evemu text as a recording, without a file.
func recording(_ text: String, path: String = "test.evemu") throws -> Recording {
    let parsed = try Evemu.parse(Array(text.utf8))
    return Recording(path: path, description: try #require(parsed.description), events: parsed.events, lastEventLine: parsed.lastEventLine)
}

@Suite struct PlaybackTests {
    /// Three taps on a 100 × 100 mm panel; the last one is followed by nothing.
    let threeTaps = description + (0..<3).map { n in
        let t = Double(n) * 0.2
        return "E: \(t) 0003 0039 \(n + 1)\nE: \(t) 0003 0035 500\nE: \(t) 0003 0036 500\nE: \(t) 0000 0000 0\n"
            + "E: \(t + 0.05) 0003 0039 -1\nE: \(t + 0.05) 0000 0000 0\n"
    }.joined()

    func events(_ text: String, _ gestures: [GestureSpec]) throws -> [String] {
        var out: [String] = []
        try Playback(config: Configuration(gestures: gestures)).play(try recording(text)) { step in
            out += step.events.map { "\($0.name) \(fixed($0.time.seconds, decimals: 3))" }
        }
        return out
    }

    @Test func pendingDecisionsAreFlushedAtTheEnd() throws {
        var single = GestureSpec(name: "single", type: .tap)
        single.maxIntervalMS = 300
        var double = GestureSpec(name: "double", type: .tap)
        double.taps = 2
        double.maxIntervalMS = 300
        // Taps 1 and 2 pair; tap 3 is a single tap once the double tap gives up at 0.45 + 0.3 s.
        #expect(try events(threeTaps, [single, double]) == ["double 0.250", "single 0.750"])
    }

    @Test func evaluationCountsWhatFiredFirst() throws {
        let files = [
            "data/taps.evemu": threeTaps,
            "data/empty-stroke.evemu": description + "E: 0.0 0003 0039 1\nE: 0.0 0000 0000 0\nE: 2.0 0003 0039 -1\nE: 2.0 0000 0000 0\n",
        ]
        let manifest = try Manifest(path: "data/manifest.csv", text: "file,label,source\ntaps.evemu,tap,generated\nempty-stroke.evemu,none,generated\n")
        var problems: [FileError] = []
        let evaluator = Evaluator(config: Configuration(gestures: [GestureSpec(name: "tap", type: .tap)]))
        let evaluation = evaluator.evaluate(manifest, load: { path throws(FileError) in
            guard let text = files[path] else { throw FileError(path: path, message: "no such file") }
            do { return try recording(text, path: path) } catch { throw FileError(path: path, message: "\(error)") }
        }) { problems.append($0) }.all
        #expect(problems.isEmpty)
        #expect(evaluation.count("tap", fired: "tap") == 1)
        #expect(evaluation.count("none", fired: "none") == 1)
        #expect(evaluation.recall("tap") == 1 && evaluation.precision("tap") == 1)
        let report = evaluation.report(format: .jsonl, gestureNames: ["tap"])
        #expect(report.first == #"{"label":"tap","total":1,"recall":1.0000,"precision":1.0000,"fired:tap":1,"fired:none":0}"#)
    }

    @Test func manifestsNamePeopleWithinTheirDataset() throws {
        let manifest = try Manifest(path: "m.csv", text: """
            file,label,source
            dollar1-s01-fast-check01.evemu,checkmark,s01 (pilot)/fast/check01.xml
            mmg-10-stylus-fast-arrowhead-01-left.evemu,chevron-left,"10-stylus-FAST/a.xml (the '>' stroke, mirrored)"
            other.evemu,none,
            """)
        #expect(manifest.rows.map(\.person) == ["dollar1:s01", "mmg:10", ""])
        #expect(manifest.rows.map(\.dataset) == ["dollar1", "mmg", "other.evemu"])
        #expect(manifest.rows[1].label == "chevron-left")
        let named = try Manifest(path: "m.csv", text: "file,label,person,dataset\na.evemu,tap,ann,lab\n")
        #expect(named.rows[0].person == "lab:ann")
    }

    @Test func theReportByPersonGivesEachRecallAndTheWorst() throws {
        var run = EvaluationRun()
        func row(_ person: String, _ label: String) -> Manifest.Row { Manifest.Row(file: "f", label: label, dataset: "d", person: person) }
        run.record(row("a", "tap"), fired: "tap")
        run.record(row("a", "none"), fired: "none")
        run.record(row("b", "tap"), fired: "none")
        run.record(row("b", "none"), fired: "tap")
        let lines = run.report(by: .person, format: .text, gestureNames: ["tap"])
        #expect(lines == [
            "person             count     tap  none fired",
            "a                      2  100.0%        0.0%",
            "b                      2    0.0%      100.0%",
            "worst                       0.0%      100.0%",
        ])
        #expect(run.report(by: .person, format: .jsonl, gestureNames: ["tap"]).first?.hasPrefix(#"{"person":"a","label":"tap","#) == true)
    }
}

@Suite struct DeviceRuleTests {
    /// A swipe to the right on a 100 × 100 mm panel.
    let swipeRight = description + "E: 0.0 0003 0039 1\nE: 0.0 0003 0035 200\nE: 0.0 0003 0036 500\nE: 0.0 0000 0000 0\n"
        + (1...10).map { "E: 0.\($0)0 0003 0035 \(200 + $0 * 50)\nE: 0.\($0)0 0000 0000 0\n" }.joined()
        + "E: 1.1 0003 0039 -1\nE: 1.1 0000 0000 0\n"

    func directions(_ rules: String) throws -> [String] {
        let config = try Configuration.parse("[[gesture]]\nname = \"s\"\ntype = \"swipe\"\nmin_distance_mm = 40\n" + rules, file: "t.toml")
        var out: [String] = []
        try Playback(config: config).play(try recording(swipeRight)) { step in out += step.events.map { $0.direction?.rawValue ?? "-" } }
        return out
    }

    @Test func rotationSizeAndIgnoreApply() throws {
        #expect(try directions("") == ["right"])
        #expect(try directions("[[device]]\nname = \"Test*\"\nrotation = 90\n") == ["down"])
        #expect(try directions("[[device]]\nname = \"Test*\"\ninvert_x = true\n") == ["left"])
        // 50 mm across on a panel said to be 60 mm wide: 30 mm, short of 40.
        #expect(try directions("[[device]]\nname = \"Test*\"\nsize_mm = [60, 60]\n") == [])
        #expect(try directions("[[device]]\nname = \"Test*\"\nignore = true\n") == [])
        #expect(try directions("[[device]]\nname = \"Other*\"\nignore = true\n") == ["right"])
    }
}
