import Gestures
import TouchCore

/// One update of the session agent's overlay (`overlay = true`): a panel's fingers, the
/// screen it is on (its rule's `output`, when one says), and where its gestures are.
/// Positions normalized over the panel, as touches are (the display's orientation).
public struct FeedbackFrame: Equatable, Sendable {
    public var panel: String
    public var output: String?
    public var fingers: [Point]
    public var lead: FeedbackLead
    /// For the inspector, when one watches: the rest of what the sequence decided so far.
    public var detail: InspectionDetail?

    public init(panel: String, output: String?, fingers: [Point], lead: FeedbackLead, detail: InspectionDetail? = nil) {
        self.panel = panel
        self.output = output
        self.fingers = fingers
        self.lead = lead
        self.detail = detail
    }
}

/// The overlay's updates, paced (`PanelPace`: the last of a burst is always drawn), and
/// what fired in each panel's sequence, for its lift: by then the recognizers have begun
/// again.
struct FeedbackStream {
    /// Twice a 120 Hz screen's rate, and above every panel's: an update that waited for
    /// the next 120th of a second would trail the finger by up to 8 ms more than drawing
    /// takes (panels report at 70 to 135 Hz and more, each frame a little early or late);
    /// the compositor shows the newest at its own rate. A flood is still held to it.
    private var pace = PanelPace<FeedbackFrame>(perSecond: 240)
    private var fired: [String: String] = [:]

    /// When the earliest waiting update is due.
    var due: Timestamp? { pace.due }

    /// What a panel's step says, as the overlay draws it: a gesture that fired stays the
    /// lead to the lift (or, fired after it, to the next sequence's start); a lift after
    /// none says nothing matched, and under the touch lock (`touchLocked`) that the lock
    /// is why.
    mutating func frame(panel: String, output: String?, step: Step, touchLocked: Bool = false,
                        lead: () -> FeedbackLead) -> FeedbackFrame {
        let fingers = step.frame?.touches.filter { $0.phase.isDown }.map(\.location) ?? []
        // A sequence's first frame (every touch in it new): what fired after the last
        // lift (a tap once its double tap's wait was over) is not this sequence's.
        if let touches = step.frame?.touches, !touches.isEmpty, touches.allSatisfy({ $0.phase == .began }) { fired[panel] = nil }
        if let event = step.events.last { fired[panel] = event.name }
        var current: FeedbackLead
        if let name = fired[panel] {
            current = FeedbackLead(gesture: name, progress: 1, verdict: .fired)
        } else if step.frame != nil, fingers.isEmpty {
            current = FeedbackLead(gesture: nil, progress: 0, verdict: .nothingMatches)
        } else {
            current = lead()
        }
        if touchLocked, current.verdict == .nothingMatches { current.verdict = .touchLocked }
        if step.frame != nil, fingers.isEmpty { fired[panel] = nil }
        return FeedbackFrame(panel: panel, output: output, fingers: fingers, lead: current)
    }

    /// The update to send now, or nil: kept until it is due. One `besideCommand` (its step
    /// starts a command) waits the pace's spacing: drawing it would take the machine from
    /// the command's start, which someone waits for; the overlay shows it that much later.
    mutating func offer(_ frame: FeedbackFrame, at time: Timestamp, besideCommand: Bool = false) -> FeedbackFrame? {
        pace.offer(frame, of: frame.panel, at: time, holding: besideCommand)
    }

    /// The waiting updates due by `time`.
    mutating func take(by time: Timestamp) -> [FeedbackFrame] { pace.take(by: time).map(\.update) }

    /// A panel gone: nothing of it waits.
    mutating func forget(_ panel: String) {
        pace.forget(panel)
        fired[panel] = nil
    }

    /// Another owner in front: nothing waiting or remembered is theirs.
    mutating func forgetAll() {
        pace.forget(nil)
        fired = [:]
    }
}
