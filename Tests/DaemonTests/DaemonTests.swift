@testable import Daemon
import Testing
import TouchCore

struct RateLimitTests {
    @Test func letsABurstThroughThenSaysItGoesQuietUntilTheIntervalEnds() {
        var limit = RateLimit(burst: 3, interval: 1_000)
        let verdicts = (0..<5).map { limit.admit(now: Int64($0)) }
        #expect(verdicts == [.pass, .pass, .lastBeforeQuiet, .quiet, .quiet])
        #expect(limit.admit(now: 999) == .quiet)
        #expect(limit.admit(now: 1_004) == .pass)
    }
}

struct RecordingSourceTests {
    static func recording(times: [Int64]) -> Recording {
        let events = times.map { InputEvent(time: Timestamp(microseconds: $0), type: EventType.syn, code: SynCode.report, value: 0) }
        return Recording(path: "test", description: DeviceDescription(name: "test", axes: []), events: events, lastEventLine: times.count)
    }

    @Test func roundsFollowEachOtherASecondAfterTheLastEvent() {
        var source = RecordingSource(Self.recording(times: [5, 10, 20]), rounds: 3)
        var times: [Int64] = []
        while let event = source.nextDue(by: Timestamp(microseconds: .max)) { times.append(event.time.microseconds) }
        let period: Int64 = 15 + 1_000_000
        #expect(times == [5, 10, 20, 5 + period, 10 + period, 20 + period, 5 + 2 * period, 10 + 2 * period, 20 + 2 * period])
        #expect(source.isFinished)
        #expect(source.nextTime == nil)
    }

    @Test func eventsComeOnlyWhenDue() {
        var source = RecordingSource(Self.recording(times: [5, 10]))
        #expect(source.nextDue(by: Timestamp(microseconds: 4)) == nil)
        #expect(source.nextDue(by: Timestamp(microseconds: 7))?.time.microseconds == 5)
        #expect(source.nextDue(by: Timestamp(microseconds: 7)) == nil)
        #expect(source.nextTime?.microseconds == 10)
    }

    @Test func anEmptyRecordingIsFinishedAtOnce() {
        #expect(RecordingSource(Self.recording(times: []), rounds: 5).isFinished)
    }
}
