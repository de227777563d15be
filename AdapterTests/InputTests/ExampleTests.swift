import Config
import ConfigParsing
import Foundation
import Input
import Pipeline
import Testing
import TouchCore

/// The README's first replay shows gestures with the built-in configuration.
@Suite struct ExampleTests {
    @Test func theExampleRecordingFiresWithTheBuiltInConfiguration() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let recording = try Recording.load(root.appendingPathComponent("examples/checkmark-and-swipe.evemu").path)
        var fired: [String] = []
        try Playback(config: Configuration.makeDefault()).play(recording) { step in fired += step.events.map(\.name) }
        #expect(fired == ["checkmark", "three-finger-swipe"])
    }
}
