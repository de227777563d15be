import TouchCore

/// Runs a device's recognizers on its touch frames and decides between them, as UIKit
/// does: by default one gesture wins a touch sequence (when one is recognized or begins,
/// the others still possible fail); `requires_failure_of` holds a gesture until the named
/// ones fail; `simultaneous_with` lets two run together. Gestures that decide in the same
/// step are taken sequences (`then`) first, then by match quality, then in configuration
/// order.
///
/// Time only comes in: with frames, and through `advance(to:)` when `nextDeadline` passes.
public final class Arbiter {
    public let recognizers: [GestureRecognizer]
    /// What the checkmark, chevron and learned stroke recognizers match strokes with
    /// (nil when there are none).
    public let strokeMatcher: StrokeMatcher?
    /// For each recognizer, the recognizers that must fail first: those it names, and
    /// for a tap the members of its `TapGroup` ranked above it (so a double tap is never
    /// also two single taps), kept as a slice of its group in order of rank rather than
    /// as a list each: 10,000 taps would make 40 million pairs.
    private let dependencies: [Dependencies]
    /// Each group of taps (see `TapGroup`), in order of rank.
    private let tapGroups: [[Int]]
    /// For a tap group, from each position the first member in the way of the taps with
    /// fewer taps (recognized, or still deciding): made when first asked for in an
    /// arbitration pass, forgotten when a decision changes states. Without it, each of a
    /// thousand single taps would look at every failed double tap, at every deadline.
    @exclusivity(unchecked) private var inTheWayFrom: [Int: [Int]] = [:]
    /// For each recognizer, those that may be recognized with it.
    private let simultaneous: [Set<Int>]
    private let output = RecognizerOutput()
    @exclusivity(unchecked) private var candidates: [Int] = []
    /// Whether the last frame left any finger on the panel.
    @exclusivity(unchecked) private var fingersDown = false

    /// What the last `process` or `advance` call did: the gesture events, every state
    /// change with its reason when `explaining`, and state machine bugs (none expected).
    public var events: [GestureEvent] { output.events }
    public var transitions: [Transition] { output.transitions }
    public var bugs: [String] { output.bugs }
    public var explaining: Bool {
        get { output.explaining }
        set { output.explaining = newValue }
    }

    public init(gestures specs: [GestureSpec], geometry: DeviceGeometry) {
        let output = self.output
        let matcher = StrokeMatcher(for: specs)
        strokeMatcher = matcher
        recognizers = specs.map { makeRecognizer($0, geometry: geometry, output: output, matcher: matcher) }
        let index = Dictionary(specs.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var simultaneous = [Set<Int>](repeating: [], count: specs.count)
        for (i, spec) in specs.enumerated() {
            for j in spec.simultaneousWith.compactMap({ index[$0] }) where j != i {
                simultaneous[i].insert(j)
                simultaneous[j].insert(i)
            }
        }
        self.simultaneous = simultaneous
        var groups: [TapGroup: [Int]] = [:]
        let rank = specs.map { TapGroup.rank(of: $0) ?? 0 }
        for (i, spec) in specs.enumerated() { if let group = TapGroup(spec) { groups[group, default: []].append(i) } }
        var dependencies = specs.map { Dependencies(named: $0.requiresFailureOf.compactMap { index[$0] }) }
        let tapGroups = groups.values.map { $0.sorted { (rank[$0], $0) < (rank[$1], $1) } }
        for (group, byRank) in tapGroups.enumerated() {
            var firstAbove = byRank.count
            for position in byRank.indices.reversed() {
                let i = byRank[position]
                if position + 1 < byRank.count, rank[byRank[position + 1]] > rank[i] { firstAbove = position + 1 }
                guard firstAbove < byRank.count, TapGroup.waits(specs[i]) else { continue }
                dependencies[i].tapsAbove = (group, firstAbove)
            }
        }
        self.tapGroups = tapGroups
        self.dependencies = dependencies
        candidates.reserveCapacity(specs.count)
    }

    /// For the overlay: a gesture recognized or under way; else the one still possible
    /// furthest toward firing; else nothing matches.
    public func lead() -> FeedbackLead {
        if let fired = recognizers.first(where: { $0.state.isActive || $0.state == .ended }) {
            return FeedbackLead(gesture: fired.spec.name, progress: 1, verdict: .fired)
        }
        var best: (name: String, progress: Double)?
        inPlay { name, state, progress in
            if state == .possible, progress > best?.progress ?? -1 { best = (name, progress) }
        }
        guard let best else { return FeedbackLead(gesture: nil, progress: 0, verdict: .nothingMatches) }
        return FeedbackLead(gesture: best.name, progress: best.progress, verdict: best.progress >= 1 ? .willFire : .deciding)
    }

    /// Each gesture still in the running (none excluded it), its state and how far it is
    /// toward its threshold, from 0 to 1: the overlay's lead, and the studio's inspector.
    public func inPlay(_ body: (_ gesture: String, _ state: RecognizerState, _ progress: Double) -> Void) {
        for r in recognizers where !r.excluded {
            body(r.spec.name, r.state, min(max(r.progress.isFinite ? r.progress : 0, 0), 1))
        }
    }

    /// The earliest time `advance(to:)` must be called if no frame comes before it.
    public var nextDeadline: Timestamp? { earliestDeadline()?.deadline }

    /// Runs the deadlines due by the frame's time, then the frame.
    public func process(_ frame: TouchFrame) {
        output.clear()
        runDeadlines(upTo: frame.time)
        output.now = frame.time
        if !fingersDown, frame.touches.contains(where: { $0.phase == .began }) { output.sequence += 1 }
        for r in recognizers { _ = r.deliver(frame) }
        arbitrate()
        fingersDown = frame.touches.contains { $0.phase.isDown }
        if !fingersDown { endSequence() }
    }

    /// Takes the gestures `reason` names out of the running at `time` (a lock, a pause,
    /// another mode): those still deciding fail, those under way are cancelled, none
    /// follows a touch again; the others decide as they would have, so a single tap that
    /// waited on an excluded double tap is recognized now.
    public func exclude(at time: Timestamp, _ reason: (GestureSpec) -> String?) {
        output.clear()
        runDeadlines(upTo: time)
        output.now = time
        for r in recognizers where !r.excluded {
            if let why = reason(r.spec) { r.exclude(why) }
        }
        arbitrate()
        if !fingersDown { endSequence() }
    }

    /// Runs the deadlines due by `time`: call it when `nextDeadline` has passed.
    public func advance(to time: Timestamp) {
        output.clear()
        runDeadlines(upTo: time)
    }

    /// Deadlines in order of time; those of one instant all run before arbitration, which
    /// then weighs what they asked for together, as a frame's: a long press and a
    /// sequence's hold that end at one instant are taken sequence first, whatever their
    /// order in the file. A thousand double taps giving up at once cost one arbitration.
    private func runDeadlines(upTo time: Timestamp) {
        while let first = earliestDeadline(), let due = first.deadline, due <= time {
            output.now = due
            for r in recognizers where r.deadline == due {
                r.deadline = nil
                r.deadlineReached()
            }
            arbitrate()
            if !fingersDown { endSequence() }
        }
    }

    private func earliestDeadline() -> GestureRecognizer? {
        var earliest: GestureRecognizer?
        for r in recognizers {
            if let d = r.deadline, d < earliest?.deadline ?? Timestamp(microseconds: .max) { earliest = r }
        }
        return earliest
    }

    /// Grants requests in order of quality, then configuration order, until nothing changes.
    private func arbitrate() {
        var changed = true
        while changed {
            changed = false
            inTheWayFrom.removeAll(keepingCapacity: true)
            candidates.removeAll(keepingCapacity: true)
            for i in recognizers.indices where recognizers[i].request != nil { candidates.append(i) }
            // A sequence before the gestures of its last step alone (it is the more
            // particular), then by quality, then in configuration order.
            candidates.sort { a, b in
                let sa = recognizers[a].spec.earlierSteps.count, sb = recognizers[b].spec.earlierSteps.count
                if sa != sb { return sa > sb }
                let qa = recognizers[a].request!.quality, qb = recognizers[b].request!.quality
                return qa != qb ? qa > qb : a < b
            }
            for c in candidates where recognizers[c].request != nil && recognizers[c].state == .possible {
                if decideDependencies(of: c) {
                    grant(c)
                    changed = true
                    inTheWayFrom.removeAll(keepingCapacity: true)
                } else if recognizers[c].state == .failed {
                    changed = true
                    inTheWayFrom.removeAll(keepingCapacity: true)
                }
            }
        }
    }

    /// True when every gesture `c` waits for has failed; fails `c` when one of them won.
    /// Stops at the first still possible: a tap's wait costs one look while the double
    /// tap decides.
    private func decideDependencies(of c: Int) -> Bool {
        for d in dependencies[c].named {
            if let verdict = judge(c, waitingFor: d) { return verdict }
        }
        guard let (group, first) = dependencies[c].tapsAbove else { return true }
        let members = tapGroups[group], next = inTheWay(group)
        var position = next[first]
        while position < members.count {
            let d = members[position]
            if !simultaneous[c].contains(d), let verdict = judge(c, waitingFor: d) { return verdict }
            position = next[position + 1]
        }
        return true
    }

    /// See `inTheWayFrom`.
    private func inTheWay(_ group: Int) -> [Int] {
        if let known = inTheWayFrom[group] { return known }
        let members = tapGroups[group]
        var next = [Int](repeating: members.count, count: members.count + 1)
        for position in members.indices.reversed() {
            let r = recognizers[members[position]]
            let deciding = r.state == .possible && !r.isIdle
            next[position] = deciding || r.state == .ended || r.state == .began || r.state == .changed ? position : next[position + 1]
        }
        inTheWayFrom[group] = next
        return next
    }

    /// False when `d` holds `c` up or beat it; nil when `d` is out of the way.
    private func judge(_ c: Int, waitingFor d: Int) -> Bool? {
        let waiting = recognizers[c], other = recognizers[d]
        switch other.state {
        case .failed, .cancelled:
            return nil
        case .ended, .began, .changed:
            waiting.fail("\(other.name) was recognized, and \(waiting.name) requires it to fail")
            return false
        case .possible:
            if other.isIdle { return nil }
            if !waiting.announcedWaiting {
                waiting.announcedWaiting = true
                waiting.explain("waiting for \(other.name) to fail")
            }
            return false
        }
    }

    /// The winner fails the others still possible that share a touch sequence with it (a
    /// double tap or five taps then a hold spans several); a gesture of a later sequence
    /// only (a swipe begun while a tap waited for a double tap) goes on.
    private func grant(_ c: Int) {
        let winner = recognizers[c]
        let spanned = winner.sequences(now: output.sequence)
        winner.grant()
        for (i, other) in recognizers.enumerated() where i != c && other.state == .possible && !simultaneous[c].contains(i)
            && other.sequences(now: output.sequence).overlaps(spanned) {
            other.fail("\(winner.name) was recognized first")
        }
    }

    /// All fingers are up: recognizers that are done start over; one still possible with
    /// touches and nothing pending had no rule for this case, and fails.
    private func endSequence() {
        for r in recognizers {
            if r.state == .possible, !r.touches.isEmpty, r.deadline == nil, r.request == nil {
                r.fail("the fingers lifted before it could decide")
            }
            if r.state.isTerminal { r.reset() }
        }
    }
}

/// What one recognizer waits for (see `Arbiter.dependencies`): those it names, and for a
/// tap its group's members from a position on.
private struct Dependencies {
    var named: [Int]
    var tapsAbove: (group: Int, from: Int)?
}

func makeRecognizer(_ spec: GestureSpec, geometry: DeviceGeometry, output: RecognizerOutput,
                    matcher: StrokeMatcher?) -> GestureRecognizer {
    if !spec.earlierSteps.isEmpty { return SequenceRecognizer(spec: spec, geometry: geometry, output: output, matcher: matcher) }
    return switch spec.type {
    case .tap: TapRecognizer(spec: spec, geometry: geometry, output: output)
    case .longPress: LongPressRecognizer(spec: spec, geometry: geometry, output: output)
    case .swipe: SwipeRecognizer(spec: spec, geometry: geometry, output: output)
    case .pan: PanRecognizer(spec: spec, geometry: geometry, output: output)
    case .pinch: PinchRecognizer(spec: spec, geometry: geometry, output: output)
    case .rotate: RotateRecognizer(spec: spec, geometry: geometry, output: output)
    case .edgeSwipe: EdgeSwipeRecognizer(spec: spec, geometry: geometry, output: output)
    case .checkmark: CheckmarkRecognizer(spec: spec, geometry: geometry, output: output, matcher: matcher!)
    case .chevron: ChevronRecognizer(spec: spec, geometry: geometry, output: output, matcher: matcher!)
    case .stroke: LearnedStrokeRecognizer(spec: spec, geometry: geometry, output: output, matcher: matcher!)
    }
}
