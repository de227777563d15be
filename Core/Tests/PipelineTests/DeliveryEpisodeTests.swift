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
        let (fixture, recording) = try FixtureTests.load("isolate-checkmark-withheld.evemu")
        let pipeline = try TouchscreenPipeline(recording.description, config: fixture.config)
        pipeline.explaining = explaining
        var notes: [DeliveryNote] = [], bugs: [String] = []
        let half = recording.events.prefix(recording.events.count / 2)
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
