@testable import Daemon
@testable import Effects
import Pipeline
import SystemIO
import Testing
import TouchCore

struct AllowanceTests {
    @Test func aBurstThenTheRateWithWhatWasRefusedReportedOncePerInterval() {
        var allowance = Allowance(burst: 3, perSecond: 1, reportEvery: 1_000_000, now: 0)
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

struct ReadAllowanceTests {
    @Test func eachCallerHasItsShareAndAllTogetherAreBounded() {
        var reads = ReadAllowance(now: 0)
        // A caller's burst, then its rate: another caller is still answered.
        var flooder: [Bool] = []
        for _ in 0..<25 { flooder.append(reads.admit(":1.5", now: 0)) }
        #expect(flooder.prefix(20).allSatisfy { $0 } && !flooder.suffix(5).contains(true))
        let another = reads.admit(":1.6", now: 0)
        let aTenthLater = reads.admit(":1.5", now: 100_000)  // a tenth of a second: one more
        #expect(another && aTenthLater)
        // All together: 50 at once and 50 a second, whoever asks (22 taken, 5 refilled).
        var crowd: [Bool] = []
        for n in 0..<100 { crowd.append(reads.admit(":2.\(n)", now: 100_000)) }
        #expect(crowd.filter { $0 }.count == 50 - 22 + 5)
        let refused = reads.dueReport(now: 60_000_000)
        #expect(refused == 5 + 100 - 33)
        // More callers than are remembered share one share.
        var many: [Bool] = []
        for n in 0..<(ReadAllowance.mostCallers + 50) { many.append(reads.admit(":3.\(n)", now: 120_000_000)) }
        #expect(many.filter { $0 }.count == 50)
    }
}

struct RecordingSourceTests {
    static func script(times: [Int64]) -> SeatScript {
        let events = times.map { InputEvent(time: Timestamp(microseconds: $0), type: EventType.syn, code: SynCode.report, value: 0) }
        return SeatScript(recordings: [Recording(path: "test", description: DeviceDescription(name: "test", axes: []), events: events,
                                                 lastEventLine: times.count)])
    }

    @Test func roundsFollowEachOtherASecondAfterTheLastEvent() {
        var source = RecordingSource(Self.script(times: [5, 10, 20]), rounds: 3)
        var times: [Int64] = [], ends: [Int64] = []
        while let item = source.nextDue(by: Timestamp(microseconds: .max)) {
            switch item {
            case .event(_, let event): times.append(event.time.microseconds)
            case .ended(_, let time): ends.append(time.microseconds)
            case .input: Issue.record("no timeline here")
            }
        }
        let period: Int64 = 15 + 1_000_000
        #expect(times == [5, 10, 20, 5 + period, 10 + period, 20 + period, 5 + 2 * period, 10 + 2 * period, 20 + 2 * period])
        #expect(ends == [20, 20 + period, 20 + 2 * period])
        #expect(source.isFinished)
        #expect(source.nextTime == nil)
    }

    @Test func eventsComeOnlyWhenDue() {
        var source = RecordingSource(Self.script(times: [5, 10]))
        #expect(source.nextDue(by: Timestamp(microseconds: 4)) == nil)
        #expect(source.nextDue(by: Timestamp(microseconds: 7))?.time.microseconds == 5)
        #expect(source.nextDue(by: Timestamp(microseconds: 7)) == nil)
        #expect(source.nextTime?.microseconds == 10)
    }

    @Test func anEmptyRecordingIsFinishedAtOnce() {
        #expect(RecordingSource(Self.script(times: []), rounds: 5).isFinished)
    }
}

