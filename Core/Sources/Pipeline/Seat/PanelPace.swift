import TouchCore

/// Each panel's updates at most `perSecond`: one due sooner waits (the latest replacing
/// it) and goes out when its time comes, so that the last of a burst always goes out and
/// none asks for more than is shown. The overlay's (`FeedbackStream`) and the Progress
/// signal's (`ProgressStream`).
struct PanelPace<Update> {
    let spacingMS: Double
    private var sentAt: [String: Timestamp] = [:]
    private var waiting: [String: Update] = [:]

    init(perSecond: Double) { spacingMS = 1000 / perSecond }

    /// When the earliest waiting update is due.
    var due: Timestamp? {
        waiting.keys.compactMap { sentAt[$0].map { $0 + spacingMS } }.min()
    }

    /// The update to send now, or nil: it waits until it is due. `holding`: it waits a
    /// spacing whatever came before.
    mutating func offer(_ update: Update, of panel: String, at time: Timestamp, holding: Bool = false) -> Update? {
        if holding {
            waiting[panel] = update
            sentAt[panel] = time
            return nil
        }
        if let last = sentAt[panel], time < last + spacingMS {
            waiting[panel] = update
            return nil
        }
        sent(of: panel, at: time)
        return update
    }

    /// One went out now whatever the pace (a begin): the next is paced from it.
    mutating func sent(of panel: String, at time: Timestamp) {
        sentAt[panel] = time
        waiting[panel] = nil
    }

    /// The waiting updates due by `time`, by panel.
    mutating func take(by time: Timestamp) -> [(panel: String, update: Update)] {
        var due: [(panel: String, update: Update)] = []
        for (panel, update) in waiting where sentAt[panel].map({ $0 + spacingMS <= time }) ?? true {
            due.append((panel, update))
            sentAt[panel] = time
        }
        for (panel, _) in due { waiting[panel] = nil }
        return due.sorted { $0.panel < $1.panel }
    }

    /// A panel's, or every panel's (nil): nothing of it waits.
    mutating func forget(_ panel: String?) {
        guard let panel else {
            sentAt = [:]
            waiting = [:]
            return
        }
        sentAt[panel] = nil
        waiting[panel] = nil
    }
}
