import Config
import Foundation
import Pipeline
import Reports
import Testing
import TouchCore

/// The step fires what is due before an event itself, so a driver that feeds deadlines
/// as the daemon's timer does (on time, late, early, several at once) makes exactly the
/// steps `Playback` makes, which feeds none until the end.
@Suite struct StepOrderTests {
    /// Fixtures whose decisions hinge on a deadline between frames: a double tap's
    /// window, a long press, an isolated panel's max delay and a lone tap's wait.
    static let names = ["fast-taps-double.evemu", "long-press.evemu", "isolate-max-delay.evemu",
                        "isolate-lone-tap-waits.evemu", "tap-then-swipe.evemu"]

    @Test(arguments: names)
    func aTimerFiringAnyTimeMakesTheStepsOfAReplay(_ name: String) throws {
        let (fixture, recording) = try FixtureTests.load(name)
        var playback = Playback(config: fixture.config)
        playback.explain = true
        var replayed: [String] = []
        try playback.play(recording) { replayed += lines($0) }
        #expect(replayed.count >= fixture.expected.count)

        // Timers that fire at every kind of time a loop can wake: at the deadline, late
        // (never past an event already read), before it (nothing is due) and never.
        var random = SystemRandomNumberGenerator()
        for lateness in [0, 0.3, 1, -1] {
            let pipeline = try TouchscreenPipeline(recording.description, config: fixture.config)
            pipeline.explaining = true
            var driven: [String] = []
            let keep: (Step) -> Void = { step in if !step.isQuiet || !step.bugs.isEmpty { driven += lines(step) } }
            for event in recording.events {
                if lateness >= 0, let due = pipeline.nextDeadline, due <= event.time {
                    let late = Double(event.time.microseconds - due.microseconds) * lateness * Double.random(in: 0...1, using: &random)
                    pipeline.step(.deadline(Timestamp(microseconds: due.microseconds + Int64(late))), keep)
                } else if lateness < 0, let due = pipeline.nextDeadline {
                    pipeline.step(.deadline(Timestamp(microseconds: due.microseconds - 1)), keep)
                }
                pipeline.step(.event(event), keep)
            }
            pipeline.step(.deadline(Timestamp(microseconds: .max)), keep)
            #expect(driven == replayed, "\(name), timer lateness \(lateness):\n\(FixtureTests.difference(driven, replayed))")
        }
    }

    @Test func aLateTimerRunsEachInstantInItsOwnStepAtItsOwnTime() throws {
        let (fixture, recording) = try FixtureTests.load("fast-taps-double.evemu")
        let pipeline = try TouchscreenPipeline(recording.description, config: fixture.config)
        for event in recording.events { pipeline.step(.event(event)) { _ in } }
        let first = try #require(pipeline.nextDeadline)
        var times: [Timestamp] = []
        pipeline.step(.deadline(first + 10)) { step in
            times.append(step.input.time)
            #expect(step.events.allSatisfy { $0.time == step.input.time })
        }
        #expect(times.first == first)
        #expect(times == times.sorted() && Set(times).count == times.count)
    }
}

private func lines(_ step: Step) -> [String] {
    var out: [String] = []
    var printer = ReplayPrinter(file: "", format: .text) { out.append($0) }
    printer.showActions = true
    printer.showDelivery = true
    printer.showTwin = true
    printer.print(step)
    return out
}
