import Config
import ConfigParsing
import Foundation
import Pipeline
import Reports
import Testing
import TouchCore

/// The data tests, keyd's `t/*.t`: every `Tests/Fixtures/*.evemu` is a recording whose
/// `#` comments carry its configuration, reloads and expected output (see
/// `scripts/make-fixtures` for the format). Adding a regression is adding a file.
@Suite struct FixtureTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasSuffix(".evemu") }.sorted()

    @Test func thereAreFixtures() {
        #expect(Self.names.count >= 10)
    }

    /// A fixture's sections and its recording.
    static func load(_ name: String) throws -> (Fixture, Recording) {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        let parsed = try Evemu.parse(Array(text.utf8))
        let recording = Recording(path: name, description: try #require(parsed.description), events: parsed.events,
                                  lastEventLine: parsed.lastEventLine)
        return (try Fixture(text, file: name), recording)
    }

    @Test(arguments: names)
    func replaysAsExpected(_ name: String) throws {
        let (fixture, recording) = try Self.load(name)
        var playback = Playback(config: fixture.config)
        playback.explain = fixture.explain
        playback.reloads = fixture.reloads
        var lines: [String] = []
        var printer = ReplayPrinter(file: "", format: .text) { lines.append(String($0.drop { $0 == " " })) }
        printer.showActions = true
        printer.showDelivery = fixture.explain
        printer.showTwin = fixture.twin
        var bugs: [String] = []
        try playback.play(recording) { step in
            bugs += step.bugs
            printer.print(step)
        }
        #expect(bugs.isEmpty)
        #expect(lines == fixture.expected, "\(name): the output differs from @expect\n\(Self.difference(lines, fixture.expected))")
    }
}

extension FixtureTests {
    /// The whole output, each line marked as `diff` does: "  " as expected, "- " expected
    /// and missing, "+ " printed and not expected (longest common subsequence).
    static func difference(_ printed: [String], _ expected: [String]) -> String {
        let n = printed.count, m = expected.count
        var common = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                common[i][j] = printed[i] == expected[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var out: [String] = [], i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, printed[i] == expected[j] {
                out.append("  " + printed[i]); i += 1; j += 1
            } else if j < m, i == n || common[i][j + 1] >= common[i + 1][j] {
                out.append("- " + expected[j]); j += 1
            } else {
                out.append("+ " + printed[i]); i += 1
            }
        }
        return out.joined(separator: "\n")
    }
}

/// What a fixture's `# @` sections say.
struct Fixture {
    var config = Configuration.makeDefault()
    var reloads: [(time: Timestamp, config: Configuration)] = []
    var explain = false
    /// `# @twin`: also expect the frames an isolated panel's twin gets.
    var twin = false
    var expected: [String] = []

    init(_ text: String, file: String) throws {
        var section: (name: String, argument: String)?
        var body: [String] = []
        func close() throws {
            guard let section else { return }
            switch section.name {
            case "config": config = try Configuration.parse(body.joined(separator: "\n"), file: file)
            case "reload": reloads.append((Timestamp(seconds: Double(section.argument) ?? 0),
                                           try Configuration.parse(body.joined(separator: "\n"), file: file)))
            case "expect": expected = body
            case "explain": explain = true
            case "twin": twin = true
            default: Issue.record("\(file): unknown section @\(section.name)")
            }
            body = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# @") {
                try close()
                let words = line.dropFirst(3).split(separator: " ", maxSplits: 1)
                section = (String(words.first ?? ""), words.count > 1 ? String(words[1]) : "")
            } else if section != nil, line.hasPrefix("#") {
                body.append(line.hasPrefix("#   ") ? String(line.dropFirst(4)) : String(line.dropFirst()).trimmingCharacters(in: .whitespaces))
            } else {
                try close()
                section = nil
            }
        }
        try close()
    }
}

@Suite struct FixtureDifferenceTests {
    @Test func marksWhatIsMissingAndWhatIsExtra() {
        #expect(FixtureTests.difference(["a", "b x", "c"], ["a", "b", "c", "d"]) == "  a\n- b\n+ b x\n  c\n- d")
        #expect(FixtureTests.difference([], []) == "")
    }
}
