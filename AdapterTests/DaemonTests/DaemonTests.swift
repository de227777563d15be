@testable import Daemon
import SystemIO
import Testing
import TouchCore

struct LogAllowanceTests {
    @Test func aBurstThenTheRateWithWhatWasRefusedReportedOncePerInterval() {
        var allowance = LogAllowance(burst: 3, perSecond: 1, reportEvery: 1_000_000, now: 0)
        var taken: [Bool] = []
        for t in 0..<5 { taken.append(allowance.take(now: Int64(t))) }
        #expect(taken == [true, true, true, false, false])
        #expect(allowance.dueReport(now: 999_999) == nil)
        #expect(allowance.dueReport(now: 1_000_000) == 2)
        let refilled = allowance.take(now: 1_000_010), again = allowance.take(now: 1_000_020)
        #expect(refilled && !again)  // a second refilled one line
        allowance.refuse(10)
        #expect(allowance.dueReport(now: 1_500_000) == nil)
        #expect(allowance.takeDropped() == 11)
        let fullAfterOneSecond = allowance.isFull(now: 2_000_000), fullAfterThree = allowance.isFull(now: 4_000_020)
        #expect(!fullAfterOneSecond && fullAfterThree)
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
