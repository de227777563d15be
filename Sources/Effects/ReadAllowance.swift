import SystemIO

/// How many property reads (Get, GetAll; Set too) bus callers may ask of the daemon.
/// Anyone may read on the system bus, and a read walks every gesture (Gestures), so
/// reads are rationed: each caller (its unique name) 20 at once then 10 a second, all
/// callers together 50 at once then 50 a second. A call beyond is dropped unanswered
/// (`BusService`'s filter), before it costs anything: a client that reads as fast as it
/// can waits on its calls instead of being answered, and on the system bus dbus-daemon
/// holds it to 128 calls in progress. Callers are remembered while they have used some
/// of their share, at most `mostCallers` (beyond, the rest share one).
struct ReadAllowance {
    static let mostCallers = 256
    private var callers: [String: Allowance] = [:]
    private var all: Allowance

    init(now: Int64) {
        all = Allowance(burst: 50, perSecond: 50, reportEvery: 60_000_000, now: now)
    }

    /// Whether `caller` may read now; a refusal is counted (see `dueReport`).
    mutating func admit(_ caller: String, now: Int64) -> Bool {
        if callers[caller] == nil, callers.count >= Self.mostCallers {
            callers = callers.filter { _, allowance in var idle = allowance; return !idle.isFull(now: now) }
        }
        let key = callers[caller] != nil || callers.count < Self.mostCallers ? caller : ""
        var mine = callers[key] ?? Allowance(burst: 20, perSecond: 10, reportEvery: .max, now: now)
        defer { callers[key] = mine }
        guard mine.hasRoom(now: now), all.hasRoom(now: now) else {
            all.refuse(1)
            return false
        }
        return mine.take(now: now) && all.take(now: now)
    }

    /// The reads refused since the last report, once a minute.
    mutating func dueReport(now: Int64) -> Int? { all.dueReport(now: now) }
}
