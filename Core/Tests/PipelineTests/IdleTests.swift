import Bindings
import Config
import ConfigParsing
import Pipeline
import Testing
import TouchCore

/// The seat's idleness (`idle_s`) and the last touch said on the bus (`LastTouch`).
@Suite struct IdleTests {
    let panel = SeatTests().panel

    func seat(_ toml: String) throws -> Seat {
        let config = try Configuration.parse(toml, file: "idle.toml")
        let seat = Seat(config: config)
        try seat.step(.reload(config, at: Timestamp(seconds: 0)))
        try seat.step(.appeared(SeatDevice(node: "a", description: panel), at: Timestamp(seconds: 0)))
        return seat
    }

    /// The commands run, the changes said and the LastTouch announcements, as words.
    func play(_ seat: Seat, _ inputs: [SeatInput]) throws -> [String] {
        try seat.play(inputs) { effect in
            switch effect {
            case .run(let command): ["run \(command.binding)"]
            case .control(let change, let time): ["\(fixed(time.seconds, decimals: 2)) \(change)"]
            case .announce(let properties, _) where properties.contains(.lastTouch):
                ["last touch \(fixed(seat.lastTouchSaid?.seconds ?? -1, decimals: 2))"]
            default: []
            }
        }
    }

    func taps(_ times: [Double]) -> [SeatInput] {
        times.enumerated().flatMap { i, t in SeatTests().tap(at: t, id: Int32(i + 1)).map { SeatInput.event(node: "a", $0) } }
    }

    static let kiosk = """
        [daemon]
        idle_s = 2
        idle_command = "screen-off"
        idle_mode = "asleep"
        active_command = "screen-on"
        active_mode = "default"
        [[gesture]]
        name = "tap"
        type = "tap"
        """

    @Test func idleOnceAfterTheTimeAndActiveAtTheNextTouch() throws {
        let seat = try seat(Self.kiosk)
        let before = try play(seat, [.deadline(Timestamp(seconds: 1.9))])
        #expect(before.isEmpty)
        let idle = try play(seat, [.deadline(Timestamp(seconds: 2.1)), .deadline(Timestamp(seconds: 60))])
        #expect(idle == ["2.00 idle (no touch for 2.000 s)", "run idle_command", "2.00 mode: default → asleep (idle_mode)"])
        #expect(seat.idleness == .idle && seat.control.gate.mode == "asleep")
        let active = try play(seat, taps([61]))
        #expect(active == ["61.00 in use again (a touch)", "run active_command", "61.00 mode: asleep → default (active_mode)", "last touch 61.00"])
        // Touches keep it in use; two seconds after the last, idle again, once.
        let again = try play(seat, taps([62, 63.5]) + [.deadline(Timestamp(seconds: 70))])
        #expect(again.filter { $0.contains("idle (") } == ["65.50 idle (no touch for 2.000 s)"])
        #expect(again.filter { $0.hasPrefix("run") } == ["run idle_command"])
    }

    @Test func aFloodOfTouchesSaysTheLastOneAtMostOnceASecond() throws {
        let seat = try seat("[daemon]\nlast_touch_interval_s = 1\n[[gesture]]\nname = \"tap\"\ntype = \"tap\"\n")
        // 100 taps 40 ms apart, over four seconds.
        let said = try play(seat, taps((0..<100).map { 10 + Double($0) * 0.04 }) + [.deadline(Timestamp(seconds: 30))])
            .filter { $0.hasPrefix("last touch") }
        #expect(said.count <= 5 && said.count >= 4, "\(said)")
        #expect(said.first == "last touch 10.00" && said.last == "last touch 13.96", "the latest is always said: \(said)")
    }

    @Test func withoutIdleSecondsNothingIsEverIdle() throws {
        let seat = try seat("[[gesture]]\nname = \"tap\"\ntype = \"tap\"\n")
        #expect(try play(seat, [.deadline(Timestamp(seconds: 100_000))]).isEmpty)
        #expect(seat.idleness != .idle)
    }
}
