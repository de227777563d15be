import TouchCore

/// Each panel's updates at most `perSecond` over time, two at most back to back: one
/// due later waits (the latest replacing it) and goes out when its time comes, so that
/// the last of a burst always goes out and none asks for more than is shown. Paced as a
/// cell rate (GCRA) with a tolerance of one spacing, not from the last update sent: a
/// panel whose frames come at about the rate, early and late in turn (or two read
/// together), has each go out as it comes, where spacing each from the one before would
/// hold every early one back. The overlay's (`FeedbackStream`) and the Progress signal's
/// (`ProgressStream`).
struct PanelPace<Update> {
    let spacingMS: Double
    /// Each panel's earliest time for its next update: a spacing past the one before's,
    /// or the one sent's own time when that was later (the pace's theoretical time less
    /// its tolerance).
    private var earliest: [String: Timestamp] = [:]
    private var waiting: [String: Update] = [:]

    init(perSecond: Double) { spacingMS = 1000 / perSecond }

    /// When the earliest waiting update is due.
    var due: Timestamp? {
        waiting.keys.compactMap { earliest[$0] }.min()
    }

    /// The update to send now, or nil: it waits until it is due. `holding`: it waits a
    /// spacing whatever came before.
    mutating func offer(_ update: Update, of panel: String, at time: Timestamp, holding: Bool = false) -> Update? {
        if holding {
            waiting[panel] = update
            earliest[panel] = time + spacingMS
            return nil
        }
        if let next = earliest[panel], time < next {
            waiting[panel] = update
            return nil
        }
        sent(of: panel, at: time)
        return update
    }

    /// One went out now whatever the pace (a begin): the next is paced from it.
    mutating func sent(of panel: String, at time: Timestamp) {
        earliest[panel] = max(earliest[panel].map { $0 + spacingMS } ?? time, time)
        waiting[panel] = nil
    }

    /// The waiting updates due by `time`, by panel.
    mutating func take(by time: Timestamp) -> [(panel: String, update: Update)] {
        var due: [(panel: String, update: Update)] = []
        for (panel, update) in waiting where earliest[panel].map({ $0 <= time }) ?? true {
            due.append((panel, update))
        }
        for (panel, _) in due { sent(of: panel, at: time) }
        return due.sorted { $0.panel < $1.panel }
    }

    /// A panel's, or every panel's (nil): nothing of it waits.
    mutating func forget(_ panel: String?) {
        guard let panel else {
            earliest = [:]
            waiting = [:]
            return
        }
        earliest[panel] = nil
        waiting[panel] = nil
    }
}
