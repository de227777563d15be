/// Something said to gestured again and again (the application in front, a user's
/// configuration), the latest only, at most once every `spacing` microseconds: now when
/// the last went out long enough ago, else once it has (`due`), so that a burst ends with
/// its last said and never outruns what gestured takes from a caller.
struct SendPace {
    let spacing: Int64
    private var sentAt: Int64?
    /// When the one waiting goes out (nil: none waits).
    private(set) var due: Int64?
    /// The system service asked for the last one again (`BusService.asksAgain`).
    private var askedAgain = false

    init(spacing: Int64) { self.spacing = spacing }

    /// Whether to send now; if not, it is `due` later.
    mutating func sendsNow(at now: Int64) -> Bool {
        guard let sentAt, now < sentAt + spacing else { return true }
        due = sentAt + spacing
        return false
    }

    /// Whether the one waiting is due by `now`.
    func isDue(at now: Int64) -> Bool { due.map { now >= $0 } ?? false }

    /// The system service let the last one go while it asked the bus who sends it: true
    /// the first time (send it again at once), false while it keeps asking (at the pace).
    mutating func sendsAgainAtOnce() -> Bool {
        defer { askedAgain = true }
        return !askedAgain
    }

    /// Any other answer: the next time it asks again, it is sent again at once.
    mutating func answered() { askedAgain = false }

    /// It went out (or was dropped: nothing to say it to).
    mutating func sent(at now: Int64?) {
        due = nil
        if let now { sentAt = now }
    }
}
