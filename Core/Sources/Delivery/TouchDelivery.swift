import Gestures
import TouchCore

/// UIKit's touch delivery for an isolated panel, frame by frame: the twin (the touchscreen
/// the desktop or the kiosk app reads) gets what no gesture takes. While a gesture with
/// `delays_touches_began` may still be recognized (and, for one of three fingers or more,
/// once that many are down), frames are held; with
/// `delays_touches_ended`, so are lifts. Recognized, a gesture with `cancels_touches` drops
/// what is held, cancels what the twin already got and withholds the rest of its touches;
/// when every gesture has failed, the held frames go out at once, then frames pass live.
/// Nothing is held longer than `max_delay_ms`. While barred (the palm under a near pen,
/// the touch lock), the twin gets no touches at all. Allocates nothing per frame.
///
/// Like the recognizers, one exhaustive switch over (episode, event) decides every change
/// (`handle`); a pair that cannot happen is a bug, reported in the step.
///
/// Its state is the pipeline's alone, touched from one thread and never while another
/// access to it is open: like the pipeline's and the seat's, it goes unchecked for
/// exclusive access at run time (a dozen checks a frame, most of those a passed-through
/// frame met).
public final class TouchDelivery {
    /// What happens to the episode, in the order `decide` looks: fingers on the panel in
    /// a frame, a gesture won, no gesture left to take the touches, the frame itself,
    /// frames held too long, no finger left.
    private enum Event {
        case fingersDown
        case won(GestureSpec)
        case noGestureLeft
        case frame(lifts: Bool)
        case heldTooLong
        case fingersUp
        case cancelled
        /// The sequence that begins wakes the screen: none of it is the twin's.
        case waking(String)
        /// Barred from now on (see `bar`): the touches on the twin end, none follows.
        case barred(String)
    }

    @exclusivity(unchecked) private var episode = DeliveryEpisode.idle
    @exclusivity(unchecked) private var panel: PanelState
    @exclusivity(unchecked) private var feed: TwinFeed
    @exclusivity(unchecked) private var scratch: PanelState
    @exclusivity(unchecked) private var held: HeldFrames
    @exclusivity(unchecked) private var frameExtras: [InputEvent] = []
    /// Each slot's tracking id at the last frame, to tell a lift.
    @exclusivity(unchecked) private var lastIDs: [Int32]
    @exclusivity(unchecked) private var lastButtonTouch: Int32 = 0
    /// Held for `maxDelay` already in this episode: from then on frames pass live.
    @exclusivity(unchecked) private var holdingExpired = false
    private let maxDelayMS: Double
    /// Said by `wake`, for the next `decide`.
    @exclusivity(unchecked) private var wakingBecause: String?
    /// Why the twin gets no touches (see `bar`), and whether the episode has taken it.
    @exclusivity(unchecked) private var barredBecause: String?
    @exclusivity(unchecked) private var barTaken = false

    /// The twin's events from the last call, each frame ending in SYN_REPORT, and the
    /// decisions; see `takeTwinEvents`.
    @exclusivity(unchecked) private var twinEvents: [InputEvent] = []
    @exclusivity(unchecked) private var notes: [DeliveryNote] = []
    @exclusivity(unchecked) private var bugs: [String] = []
    /// Whether episode changes are noted (`--explain`, the debug log).
    public var explaining = false

    /// `cancelsAsPalm`: the twin has ABS_MT_TOOL_TYPE (see `TwinFeed`).
    public init(panel: PanelState, cancelsAsPalm: Bool, maxDelayMS: Double, capacity: Int = 128) {
        self.panel = panel
        feed = TwinFeed(panel: panel, cancelsAsPalm: cancelsAsPalm)
        scratch = panel
        held = HeldFrames(capacity: capacity, slotCount: panel.slotCount)
        lastIDs = (0..<panel.slotCount).map { panel[$0, AbsCode.mtTrackingID] }
        self.maxDelayMS = maxDelayMS
        frameExtras.reserveCapacity(HeldFrames.extrasPerFrame)
        twinEvents.reserveCapacity(256)
        notes.reserveCapacity(8)
    }

    /// Hand over the last call's twin events and notes, taking the caller's emptied arrays
    /// in exchange: the buffers swap, and neither is copied or reallocated.
    public func takeTwinEvents(_ events: inout [InputEvent]) { swap(&events, &twinEvents) }
    public func takeNotes(_ notes: inout [DeliveryNote]) { swap(&notes, &self.notes) }
    /// Impossible (episode, event) pairs met in the last call: none expected.
    public var bugsOfLastCall: [String] { bugs }

    /// Every event of the panel, as it comes; the frame is decided at SYN_REPORT.
    public func take(_ event: InputEvent) {
        if panel.apply(event) || event.type == EventType.syn { return }
        if frameExtras.count < HeldFrames.extrasPerFrame { frameExtras.append(event) }
    }

    /// Touches the twin shows now.
    public var twinTouches: Int { feed.touchCount }

    /// When held frames must go out if nothing decides before.
    public var nextDeadline: Timestamp? {
        guard !holdingExpired, let oldest = held.oldestTime else { return nil }
        return oldest + maxDelayMS
    }

    /// After a step: `frameEnded` when its input was a SYN_REPORT; the step's gesture
    /// events and the recognizers as they are after it.
    public func decide(at now: Timestamp, frameEnded: Bool, events: [GestureEvent], recognizers: [GestureRecognizer]) {
        startCall()
        let lifts = frameEnded && frameLiftsATouch()
        if let reason = wakingBecause {
            wakingBecause = nil
            handle(.waking(reason), at: now, recognizers)
        }
        if let reason = barredBecause, !barTaken {
            barTaken = true
            handle(.barred(reason), at: now, recognizers)
        }
        if frameEnded, panel.fingersDown { handle(.fingersDown, at: now, recognizers) }
        if let winner = winner(of: events, among: recognizers) { handle(.won(winner), at: now, recognizers) }
        if !recognizers.contains(where: \.mayYetBeRecognized) { handle(.noGestureLeft, at: now, recognizers) }
        if frameEnded { handle(.frame(lifts: lifts), at: now, recognizers) }
        if let due = nextDeadline, due <= now || held.isFull { handle(.heldTooLong, at: now, recognizers) }
        if !panel.fingersDown { handle(.fingersUp, at: now, recognizers) }
        frameExtras.removeAll(keepingCapacity: true)
    }

    /// The panel's touches are gone (unplugged, the recording ended): the twin's are
    /// cancelled and nothing held goes out.
    public func cancel(at now: Timestamp) {
        startCall()
        handle(.cancelled, at: now, [])
    }

    /// The touch sequence whose first frame the next `decide` takes wakes a dark screen:
    /// the twin gets none of it.
    public func wake(because reason: String) { wakingBecause = reason }

    /// From the next `decide` on, the twin gets no touches: those it shows end as a
    /// cancel, what is held is dropped, and every sequence is withheld until `unbar`.
    /// A sequence under way then stays withheld until its fingers lift.
    public func bar(because reason: String) {
        if barredBecause == nil { barTaken = false }
        barredBecause = reason
    }

    public func unbar() { barredBecause = nil }

    /// Whether the twin gets no touches now.
    public var barred: Bool { barredBecause != nil }

    private func startCall() {
        twinEvents.removeAll(keepingCapacity: true)
        notes.removeAll(keepingCapacity: true)
        bugs.removeAll(keepingCapacity: true)
    }

    /// Every change of episode, as libinput's gesture states: one case per pair.
    private func handle(_ event: Event, at now: Timestamp, _ recognizers: [GestureRecognizer]) {
        switch (episode, event) {
        case (.idle, .fingersDown):
            holdingExpired = false
            if let reason = barredBecause {
                change(to: .withheld, at: now, "touches landed, \(reason)")
            } else {
                change(to: .deciding, at: now, "touches landed")
            }
        case (.deciding, .fingersDown), (.passing, .fingersDown), (.withheld, .fingersDown):
            break
        case (.deciding, .won(let winner)) where winner.cancelsTouches:
            change(to: .withheld, at: now, "\(winner.name) was recognized")
            drop(now, because: "\(winner.name) was recognized")
            cancelTwinTouches(now, because: "\(winner.name) was recognized")
        case (.deciding, .won(let winner)):
            change(to: .passing, at: now, "\(winner.name) was recognized and does not cancel touches")
            flush(now, because: "\(winner.name) was recognized and does not cancel touches")
        case (.idle, .won), (.passing, .won), (.withheld, .won):
            // A gesture of the next sequence, or one recognized with the winner: the
            // touches' fate is decided.
            break
        case (.deciding, .noGestureLeft):
            change(to: .passing, at: now, "no gesture can take these touches any more")
            flush(now, because: "no gesture can take these touches any more")
        case (.idle, .noGestureLeft), (.passing, .noGestureLeft), (.withheld, .noGestureLeft):
            break
        case (.idle, .frame), (.passing, .frame):
            feed.write(panel, extras: frameExtras, into: &twinEvents)
        case (.withheld, .frame):
            feed.withoutTouches(into: &scratch)
            feed.write(scratch, into: &twinEvents)
        case (.deciding, .frame(let lifts)):
            hold(frame: now, lifts: lifts, recognizers)
        case (.deciding, .heldTooLong):
            flush(now, because: held.isFull ? "as many frames as can be held" : "held for max_delay_ms")
            holdingExpired = true
        case (.idle, .heldTooLong), (.passing, .heldTooLong), (.withheld, .heldTooLong):
            // Frames are held only while deciding, and leave when it ends.
            bugs.append("twin: \(held.count) frame(s) held while \(episode.rawValue)")
        case (.deciding, .fingersUp):
            // A lone tap waiting for a second one: still deciding (noGestureLeft ends it).
            break
        case (.passing, .fingersUp), (.withheld, .fingersUp):
            change(to: .idle, at: now, "the fingers lifted")
        case (.idle, .fingersUp):
            break
        case (.idle, .waking(let reason)):
            change(to: .withheld, at: now, reason)
        case (.deciding, .waking(let reason)), (.passing, .waking(let reason)):
            // What is held is the last sequence's: it goes out as it would have.
            flush(now, because: "a new touch sequence began")
            change(to: .withheld, at: now, reason)
        case (.withheld, .waking):
            break
        case (.idle, .barred):
            break
        case (.deciding, .barred(let reason)), (.passing, .barred(let reason)), (.withheld, .barred(let reason)):
            drop(now, because: reason)
            cancelTwinTouches(now, because: reason)
            if episode != .withheld { change(to: .withheld, at: now, reason) }
        case (.idle, .cancelled), (.deciding, .cancelled), (.passing, .cancelled), (.withheld, .cancelled):
            drop(now, because: "the touches were cancelled")
            cancelTwinTouches(now, because: "the touches were cancelled")
            if episode != .idle { change(to: .idle, at: now, "the touches were cancelled") }
        }
    }

    private func change(to next: DeliveryEpisode, at now: Timestamp, _ reason: @autoclosure () -> String) {
        if explaining { notes.append(DeliveryNote(time: now, kind: .changed(from: episode, to: next), count: 0, reason: reason())) }
        episode = next
    }

    // MARK: Frames

    /// A frame while deciding: held while a gesture that delays it may still be
    /// recognized (and until max_delay_ms), passed otherwise.
    private func hold(frame now: Timestamp, lifts: Bool, _ recognizers: [GestureRecognizer]) {
        let down = fingersDown()
        let waiting = holdingExpired ? nil : recognizers.first { r in
            r.mayYetBeRecognized
                && ((r.spec.delaysTouchesBegan && down >= r.spec.delaysFromFingers) || (lifts && r.spec.delaysTouchesEnded))
        }
        if held.isEmpty, waiting == nil {
            feed.write(panel, extras: frameExtras, into: &twinEvents)
            return
        }
        if held.isEmpty, let waiting {
            notes.append(DeliveryNote(time: now, kind: .held, count: 1, reason: "\(waiting.spec.name) may still be recognized"))
        }
        if held.isFull { flush(now, because: "as many frames as can be held") }
        held.push(panel, extras: frameExtras, at: now)
    }

    /// The panel's touches down in this frame (a single-touch panel's one, while touching).
    private func fingersDown() -> Int {
        if panel.slotCount == 0 { return panel[button: KeyCode.btnTouch] != 0 ? 1 : 0 }
        var down = 0
        for slot in 0..<panel.slotCount where panel[slot, AbsCode.mtTrackingID] >= 0 { down += 1 }
        return down
    }

    private func frameLiftsATouch() -> Bool {
        var lifted = false
        for slot in 0..<panel.slotCount {
            let id = panel[slot, AbsCode.mtTrackingID]
            if lastIDs[slot] >= 0, id != lastIDs[slot] { lifted = true }
            lastIDs[slot] = id
        }
        let touch = panel[button: KeyCode.btnTouch]
        if panel.slotCount == 0, lastButtonTouch != 0, touch == 0 { lifted = true }
        lastButtonTouch = touch
        return lifted
    }

    private func winner(of events: [GestureEvent], among recognizers: [GestureRecognizer]) -> GestureSpec? {
        for event in events where event.phase == .recognized || event.phase == .began {
            if let r = recognizers.first(where: { $0.spec.name == event.name }) { return r.spec }
        }
        return nil
    }

    private func flush(_ now: Timestamp, because reason: String) {
        guard !held.isEmpty else { return }
        let count = held.count
        while !held.isEmpty {
            let extras = held.popOldest(into: &scratch)
            feed.write(scratch, extras: extras, into: &twinEvents)
        }
        notes.append(DeliveryNote(time: now, kind: .delivered, count: count, reason: reason))
    }

    private func drop(_ now: Timestamp, because reason: String) {
        guard !held.isEmpty else { return }
        notes.append(DeliveryNote(time: now, kind: .dropped, count: held.count, reason: reason))
        held.removeAll()
    }

    private func cancelTwinTouches(_ now: Timestamp, because reason: String) {
        let touches = feed.touchCount
        guard touches > 0 else { return }
        feed.cancelTouches(into: &twinEvents)
        notes.append(DeliveryNote(time: now, kind: .cancelled, count: touches, reason: reason))
    }
}
