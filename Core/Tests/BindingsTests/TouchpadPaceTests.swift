@testable import Bindings
import Testing
import TouchCore

/// The virtual touchpad's frames as the kernel is to stamp them: never closer than a
/// touchpad's pace, however they reach the daemon.
@Suite struct TouchpadPaceTests {
    func down() -> [InputEvent] {
        var frame: [InputEvent] = []
        VirtualTouchpad.appendDown([Point(x: 300, y: 200), Point(x: 320, y: 200)], ids: [1, 2], to: &frame)
        return frame
    }

    func move(_ x: Double) -> [InputEvent] {
        var frame: [InputEvent] = []
        VirtualTouchpad.appendMove([Point(x: x, y: 200), Point(x: x + 20, y: 200)], to: &frame)
        return frame
    }

    func up() -> [InputEvent] {
        var frame: [InputEvent] = []
        VirtualTouchpad.appendUp(2, to: &frame)
        return frame
    }

    /// Every frame written, with its time: the frames submitted at `now`, then the waiting
    /// ones taken as they fall due.
    func written(_ frames: [[InputEvent]], _ pace: inout TouchpadPace, now: Int64) -> [(time: Int64, frame: [InputEvent])] {
        var out = frames.flatMap { frame in pace.submit(frame, now: now).map { (now, $0) } }
        while let due = pace.due { out += pace.take(now: due).map { (due, $0) } }
        return out
    }

    @Test func aBacklogGoesOutAtTheTouchpadsPaceInOrder() {
        var pace = TouchpadPace(spacing: 5_000, capacity: 64)
        let frames = [down()] + (1...40).map { move(300 + 2 * Double($0)) } + [up()]
        let out = written(frames, &pace, now: 1_000_000)
        #expect(out.map(\.frame) == frames)
        #expect(out.first?.time == 1_000_000)
        #expect(zip(out, out.dropFirst()).allSatisfy { $1.time - $0.time == 5_000 })
    }

    @Test func aFrameAfterAPauseGoesAtOnce() {
        var pace = TouchpadPace()
        #expect(pace.submit(down(), now: 1_000_000).count == 1)
        #expect(pace.submit(move(301), now: 1_002_000).isEmpty)
        #expect(pace.due == 1_005_000)
        #expect(pace.take(now: 1_004_999).isEmpty)
        #expect(pace.take(now: 1_005_000) == [move(301)])
        #expect(pace.due == nil)
        #expect(pace.submit(move(302), now: 1_050_000) == [move(302)])
    }

    @Test func theNextFrameCountsFromWhenTheWriteReturned() {
        var pace = TouchpadPace()
        #expect(pace.submit(down(), now: 1_000_000).count == 1)
        // Held up 3 ms before the write went out: the kernel stamped it then.
        pace.wrote(at: 1_003_000)
        #expect(pace.submit(move(301), now: 1_004_000).isEmpty)
        #expect(pace.due == 1_008_000)
        // A time before the last one never brings the next frame nearer.
        pace.wrote(at: 1_001_000)
        #expect(pace.due == 1_008_000)
    }

    @Test func pastItsCapacityEveryOtherMovementIsLeftOutNeverALandingOrALift() {
        var pace = TouchpadPace(spacing: 5_000, capacity: 8)
        // Nine movements wait behind the landing: one too many.
        let frames = [down()] + (1...9).map { move(300 + 2 * Double($0)) } + [up()]
        let out = written(frames, &pace, now: 1_000_000)
        // Still a pace apart: no frame written at once.
        #expect(zip(out, out.dropFirst()).allSatisfy { $1.time - $0.time == 5_000 })
        #expect(out.first?.frame == down() && out.last?.frame == up())
        // The fingers reach where they went, in fewer frames, each at most two frames' movement.
        let moves = out.map(\.frame).filter(VirtualTouchpad.isMove)
        #expect(moves.last == move(318))
        #expect(moves.count == 5)
        let xs = [300.0] + moves.compactMap { frame in
            frame.first { $0.type == EventType.abs && $0.code == AbsCode.x }.map { Double($0.value) / Double(VirtualTouchpad.unitsPerMM) }
        }
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $1 - $0 > 0 && $1 - $0 <= 4 })
    }

    @Test func landingsAndLiftsPastItsCapacityGoOneAtATime() {
        var pace = TouchpadPace(spacing: 5_000, capacity: 2)
        #expect(pace.submit(down(), now: 1_000_000).count == 1)
        #expect(pace.submit(up(), now: 1_000_001).isEmpty)
        #expect(pace.submit(down(), now: 1_000_002).isEmpty)
        #expect(pace.submit(up(), now: 1_000_003) == [up()])
        #expect(pace.drain(now: 1_000_004) == [down(), up()])
        #expect(pace.due == nil)
    }
}
