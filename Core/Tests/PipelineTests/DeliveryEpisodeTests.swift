import Config
import Delivery
import Foundation
import Pipeline
import Testing
import TouchCore

/// The delivery's episode changes, seen from the steps: noted when explaining, never a bug.
@Suite struct DeliveryEpisodeTests {
    /// An isolated checkmark's first half, then its touches cancelled (unplugged).
    func notes(explaining: Bool) throws -> (notes: [DeliveryNote], bugs: [String]) {
        let name = "isolate-checkmark-withheld.evemu"
        let text = try String(contentsOf: FixtureTests.directory.appendingPathComponent(name), encoding: .utf8)
        let fixture = try Fixture(text, file: name)
        let parsed = try Evemu.parse(Array(text.utf8))
        let pipeline = try TouchscreenPipeline(try #require(parsed.description), config: fixture.config)
        pipeline.explaining = explaining
        var notes: [DeliveryNote] = [], bugs: [String] = []
        let half = parsed.events.prefix(parsed.events.count / 2)
        for input in half.map(PipelineInput.event) + [.cancel(half.last!.time)] {
            pipeline.step(input) { step in
                notes += step.delivery
                bugs += step.bugs
            }
        }
        return (notes, bugs)
    }

    @Test func aCancelWhileDecidingDropsTheHeldFramesAndEndsTheEpisode() throws {
        let (notes, bugs) = try notes(explaining: true)
        #expect(bugs.isEmpty)
        #expect(notes.map(\.summary).first == "idle → deciding")
        #expect(notes.map(\.summary).suffix(2).first?.hasPrefix("dropped ") == true)
        #expect(notes.last?.kind == .changed(from: .deciding, to: .idle))
        #expect(notes.last?.reason == "the touches were cancelled")
    }

    @Test func episodeChangesAreNotedOnlyWhenExplaining() throws {
        let (notes, bugs) = try notes(explaining: false)
        #expect(bugs.isEmpty)
        #expect(!notes.isEmpty)
        #expect(notes.allSatisfy { if case .changed = $0.kind { false } else { true } })
    }
}
