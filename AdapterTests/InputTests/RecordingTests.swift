import Config
import Foundation
import Input
import Pipeline
import Reports
import Testing
import TouchCore

/// A temporary directory of files, removed when the test ends.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

let description = "N: Test Panel\nA: 35 0 1000 0 0 10\nA: 36 0 1000 0 0 10\nA: 2f 0 9 0 0 0\n"
let tap = "E: 0.000000 0003 0039 1\nE: 0.000000 0000 0000 0\nE: 0.080000 0003 0039 -1\nE: 0.080000 0000 0000 0\n"

@Suite struct RecordingTests {
    @Test func eventsPairWithTheDescriptionOfTheirDeviceName() throws {
        let dir = try TemporaryDirectory()
        let desc = try dir.write("Wacom Co.,Ltd. Pen.desc", description)
        let events = try dir.write("Wacom Co.,Ltd. Pen.2-finger-tap.events", tap)
        #expect(Recording.pairedDescriptionPath(for: events) == desc)
        let recording = try Recording.load(events)
        #expect(recording.description.name == "Test Panel")
        #expect(recording.events.count == 4)
    }

    @Test func anExplicitDescriptionWins() throws {
        let dir = try TemporaryDirectory()
        try dir.write("Panel.desc", "N: Beside\nA: 00 0 10 0 0 0\nA: 01 0 10 0 0 0\n")
        let other = try dir.write("other.desc", description)
        let events = try dir.write("Panel.tap.events", tap)
        #expect(try Recording.load(events, device: other).description.name == "Test Panel")
    }

    @Test func eventsWithoutAnyDescriptionSayWhatToDo() throws {
        let dir = try TemporaryDirectory()
        let events = try dir.write("lonely.events", tap)
        #expect { try Recording.load(events) } throws: { error in
            let e = error as! FileError
            return e.path == events && e.line == nil && e.description.contains("--device FILE.desc")
        }
    }

    @Test func garbledFilesGiveFileLineAndMessage() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("cut.evemu", description + "E: 0.000000 0003 0039 1\nE: 0.000000 0000 0000 0\nE: 0.0800")
        #expect { try Recording.load(file) } throws: { error in
            (error as! FileError).description.hasPrefix("\(file):7: error: expected 'E: ")
        }
        let missing = dir.path + "/missing.evemu"
        #expect { try Recording.load(missing) } throws: { error in
            (error as! FileError).description == "\(missing): error: cannot read: No such file or directory"
        }
    }

    @Test func replayFailsOnARecordingThatEndsWithAFingerDown() throws {
        let dir = try TemporaryDirectory()
        let whole = try dir.write("whole.evemu", description + tap)
        let cut = try dir.write("cut.evemu", description + "E: 0.000000 0003 0039 1\nE: 0.000000 0000 0000 0\n")
        let headerOnly = try dir.write("header.evemu", description)
        let playback = Playback(config: Configuration())
        func replays(_ path: String) -> Bool {
            (try? playback.play(try Recording.load(path)) { _ in }) != nil
        }
        #expect(replays(whole))
        #expect(!replays(cut))
        #expect(!replays(headerOnly))
    }
}

@Suite struct DescriptionOnlyTests {
    @Test func aDescriptionFileReplaysAsNothingButAnEmptyRecordingIsAnError() throws {
        let dir = try TemporaryDirectory()
        let desc = try dir.write("Panel.desc", description)
        let empty = try dir.write("empty.evemu", description)
        #expect(try Recording.load(desc).events.isEmpty)
        #expect(throws: FileError.self) { try Recording.load(empty) }
    }
}
