import Bindings
import Config
import ConfigDocument
import ConfigParsing
import ConfigSyntax
import Foundation
import Pipeline
import Reports
import Testing
import TouchCore

/// The seat's data tests: every folder of `Tests/SeatFixtures` is a seat's replay (see
/// `scripts/make-seat-fixtures`): recordings on one clock, a configuration, a timeline,
/// and the whole output `replay --together --actions --twin` prints.
@Suite struct SeatFixtureTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SeatFixtures")

    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()

    @Test func thereAreSeatFixtures() {
        #expect(Self.names.count >= 10)
    }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test(arguments: names)
    func playsAsExpected(_ name: String) throws {
        let folder = Self.directory.appendingPathComponent(name)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        var recordings: [Recording] = []
        for file in files where file.hasSuffix(".evemu") {
            let parsed = try Evemu.parse(Array(try Self.text(folder.appendingPathComponent(file)).utf8))
            recordings.append(Recording(path: file, description: try #require(parsed.description), events: parsed.events,
                                        lastEventLine: parsed.lastEventLine, start: parsed.start))
        }
        let config = try Configuration.parse(try Self.text(folder.appendingPathComponent("gestured.toml")), file: "gestured.toml",
                                             keyCodes: GateAtOnceTests.keyCodes)
        var inputs: [SeatInput] = []
        if files.contains("timeline") {
            let timeline = try Timeline(parsing: try Self.text(folder.appendingPathComponent("timeline")), path: "timeline")
            var configurations: [String: Configuration] = [:]
            var pushes: [String: UserPush] = [:]
            for line in timeline.lines {
                switch line.entry {
                case .reload(let path):
                    configurations[path] = try Configuration.parse(try Self.text(folder.appendingPathComponent(path)), file: path,
                                                                   keyCodes: GateAtOnceTests.keyCodes)
                case .push(_, _, let path):
                    let text = try Self.text(folder.appendingPathComponent(path))
                    pushes[path] = UserPush(file: path, text: text, document: ParseOutcome(parsing: text).encoded)
                default:
                    break
                }
            }
            inputs = try SeatScript.inputs(of: timeline, recordings: recordings, configurations: configurations, pushes: pushes)
        }
        var lines: [String] = []
        var printer = SeatPrinter(format: .text) { lines += $0.split(separator: "\n").map(String.init) }
        printer.base.showTransitions = false
        printer.base.showActions = true
        printer.base.showTwin = true
        var refusals: [String] = []
        var playback = Playback(config: config)
        playback.keyCodes = { GateAtOnceTests.keyCodes }
        try playback.play(SeatScript(recordings: recordings, inputs: inputs), { printer.print($0) }) { input, refusal in
            // A user's configuration refused is said in the output, and a report or a watch
            // refused changes nothing the output would show; a request refused is a fixture's mistake.
            switch input {
            case .push, .reportedApp, .reportedWindows, .inspect: return
            default: refusals.append("\(refusal)")
            }
        }
        #expect(refusals.isEmpty)
        let expected = try Self.text(folder.appendingPathComponent("expected")).split(separator: "\n").map(String.init)
        #expect(lines == expected, "\(name): the output differs from expected\n\(FixtureTests.difference(lines, expected))")
    }
}
