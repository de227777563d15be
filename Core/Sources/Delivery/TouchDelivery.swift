import Gestures
import TouchCore

/// A decision about what the twin gets, for `replay --explain` and the verbose log.
public struct DeliveryNote: Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// Frames are held back from here on.
        case held
        /// Held frames went to the twin.
        case delivered
        /// Held frames were dropped: a gesture took their touches.
        case dropped
        /// Touches the twin had were cancelled.
        case cancelled
    }

    public var time: Timestamp
    public var kind: Kind
    /// Frames (held, delivered, dropped) or touches (cancelled).
    public var count: Int
    public var reason: String
}

/// UIKit's touch delivery for an isolated panel, frame by frame: the twin (the touchscreen
/// the desktop or the kiosk app reads) gets what no gesture takes. While a gesture with
/// `delays_touches_began` may still be recognized, frames are held; with
/// `delays_touches_ended`, so are lifts. Recognized, a gesture with `cancels_touches` drops
/// what is held, cancels what the twin already got and withholds the rest of its touches;
/// when every gesture has failed, the held frames go out at once, then frames pass live.
/// Nothing is held longer than `max_delay_ms`. Allocates nothing per frame.
public final class TouchDelivery {
    private enum Episode {
        /// No touches, nothing deciding: frames pass.
        case idle
        case deciding
        /// Every gesture failed, or one that does not cancel touches won.
        case passing
        /// A gesture won the touches: the twin gets none of them.
        case withheld
    }

    private var episode = Episode.idle
    private var panel: PanelState
    private var feed: TwinFeed
    private var scratch: PanelState
    private var held: HeldFrames
    private var frameExtras: [InputEvent] = []
    /// Each slot's tracking id at the last frame, to tell a lift.
    private var lastIDs: [Int32]
    private var lastButtonTouch: Int32 = 0
    /// Held for `maxDelay` already in this episode: from then on frames pass live.
    private var holdingExpired = false
    private let maxDelayMS: Double

    /// The twin's events from the last call, each frame ending in SYN_REPORT, and the
    /// decisions; see `takeTwinEvents`.
    private var twinEvents: [InputEvent] = []
    private var notes: [DeliveryNote] = []

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
        twinEvents.removeAll(keepingCapacity: true)
        notes.removeAll(keepingCapacity: true)
        let lifts = frameEnded && frameLiftsATouch()
        if frameEnded, episode == .idle, panel.fingersDown { episode = .deciding; holdingExpired = false }

        if episode == .deciding, let winner = winner(of: events, among: recognizers) {
            if winner.cancelsTouches {
                episode = .withheld
                drop(now, because: "\(winner.name) was recognized")
                cancelTwinTouches(now, because: "\(winner.name) was recognized")
            } else {
                episode = .passing
                flush(now, because: "\(winner.name) was recognized and does not cancel touches")
            }
        }
        if episode == .deciding, !recognizers.contains(where: \.mayYetBeRecognized) {
            episode = .passing
            flush(now, because: "no gesture can take these touches any more")
        }
        if frameEnded { place(frame: now, lifts: lifts, recognizers: recognizers) }
        if let due = nextDeadline, due <= now || held.isFull {
            flush(now, because: held.isFull ? "as many frames as can be held" : "held for max_delay_ms")
            holdingExpired = true
        }
        if !panel.fingersDown, episode != .deciding || !recognizers.contains(where: \.mayYetBeRecognized) {
            if !held.isEmpty { flush(now, because: "no gesture can take these touches any more") }
            episode = .idle
        }
        frameExtras.removeAll(keepingCapacity: true)
    }

    /// The panel's touches are gone (unplugged, the recording ended): the twin's are
    /// cancelled and nothing held goes out.
    public func cancel(at now: Timestamp) {
        twinEvents.removeAll(keepingCapacity: true)
        notes.removeAll(keepingCapacity: true)
        drop(now, because: "the touches were cancelled")
        cancelTwinTouches(now, because: "the touches were cancelled")
        episode = .idle
    }

    // MARK: Frames

    private func place(frame now: Timestamp, lifts: Bool, recognizers: [GestureRecognizer]) {
        switch episode {
        case .idle, .passing:
            feed.write(panel, extras: frameExtras, into: &twinEvents)
        case .withheld:
            feed.withoutTouches(into: &scratch)
            feed.write(scratch, into: &twinEvents)
        case .deciding:
            let waiting = holdingExpired ? nil : recognizers.first { r in
                r.mayYetBeRecognized && (r.spec.delaysTouchesBegan || (lifts && r.spec.delaysTouchesEnded))
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
