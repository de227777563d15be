import Bindings
import Config
import Delivery
import Gestures
import TouchCore

/// One touchscreen's path from kernel events to actions, keyd's `kbd_process_events`:
/// the decoder, the recognizers under the arbiter and the bindings, set up by the
/// configuration's first matching `[[device]]` rule. No I/O and no clock: `step` is all
/// that replay, evaluation, the daemon, the benchmark and the tests call, and it decides
/// the order of deadlines and events itself, so that they all make the same steps.
/// Its state is reached only through its own methods, one call at a time (a step's body
/// may give it a gate, which it takes after the step), so the run-time exclusivity checks
/// are left out of its stored properties: per event they cost more than the step's work.
public final class TouchscreenPipeline {
    public let device: DeviceDescription
    @exclusivity(unchecked) public var explaining = false {
        didSet { isolation?.explaining = explaining }
    }
    @exclusivity(unchecked) private var decoder: TouchDecoder
    /// What the twin gets, when the configuration isolates this panel (see `TouchDelivery`).
    public let isolation: TouchDelivery?
    /// The recognizers and bindings in force: the two always change together, between
    /// touch sequences.
    @exclusivity(unchecked) private var current: Setup
    /// The last configuration given, as it applies to this device, the last gate, and
    /// the display's rotation as last sensed or set (for a panel whose rotation follows it).
    @exclusivity(unchecked) private var applied: Applied
    @exclusivity(unchecked) public private(set) var gate: GestureGate
    @exclusivity(unchecked) public private(set) var displayRotation: QuarterTurn
    /// `current` was not made from them: made anew once no sequence is in flight.
    @exclusivity(unchecked) private var stale = false
    /// Its palm is silenced (see `Palm`): no gesture fires, and touches go to an isolated
    /// panel's twin, unless its rule withholds the palm from it too.
    @exclusivity(unchecked) public private(set) var silenced = false
    /// The screens as last said (see `Screens`), and whether this panel's is dark by them.
    @exclusivity(unchecked) private var screens = Screens([])
    @exclusivity(unchecked) public private(set) var screenDark = false
    /// The wake latch (see `WakeLatch`).
    @exclusivity(unchecked) private var latch = WakeLatch()
    /// The sequence under way woke the screen: it fires nothing and reaches no twin.
    public var waking: Bool { latch.isWaking }
    @exclusivity(unchecked) private var output = Step(.deadline(Timestamp(microseconds: 0)))
    /// The arbiter's next deadline as of the last step that reached it: most events only
    /// fill in a frame, and need not ask every recognizer again.
    @exclusivity(unchecked) public private(set) var nextDeadline: Timestamp?
    /// A gate given while a step was being performed (see `give`).
    @exclusivity(unchecked) private var gateGiven: (gate: GestureGate, time: Timestamp)?

    public enum Refusal: Error, Equatable {
        /// A `[[device]]` rule says `ignore = true`.
        case ignored
        /// No position axes: not a touchscreen.
        case noPositionAxes
    }

    /// A configuration as it applies to this device: its rule, its geometry (turned as
    /// mounted), and how its rotation is known.
    private struct Applied {
        var config: Configuration
        var rule: DeviceRule?
        var geometry: DeviceGeometry
        var rotation: RotationSetting

        init(_ device: DeviceDescription, _ config: Configuration) throws(Refusal) {
            let rule = config.rule(for: device)
            if rule?.ignore == true { throw .ignored }
            rotation = config.rotation(for: rule)
            guard let geometry = TouchscreenPipeline.geometry(device, rule: rule, rotation: rotation.rotation(display: .upright)) else {
                throw .noPositionAxes
            }
            self.config = config
            self.rule = rule
            self.geometry = geometry
        }

        /// The gestures of its rule for `tool`'s contacts.
        func gestures(for tool: ContactTool) -> [GestureSpec] {
            config.gestures(for: rule).filter { ($0.tool ?? tool) == tool }
        }

        /// The geometry in force with the display turned to `display`.
        func geometry(display: QuarterTurn) -> DeviceGeometry {
            rotation.followsDisplay ? geometry.turned(to: display) : geometry
        }
    }

    /// The recognizers of the gestures the gate admits, and the bindings.
    private struct Setup {
        var geometry: DeviceGeometry
        var arbiter: Arbiter
        var bindings: BindingTable
        /// Some of its gestures are for the window under the first touch: a sequence's
        /// first touch may call for them made again (see `chooseByFirstTouch`).
        var touchDecides: Bool
        /// The application under the first touch they were made for.
        var touched: AppInFront?

        init(_ applied: Applied, _ gate: GestureGate, display: QuarterTurn, tool: ContactTool, silenced: Bool = false,
             touched: AppInFront? = nil) {
            geometry = applied.geometry(display: display)
            let ours = silenced ? [] : applied.gestures(for: tool)
            arbiter = Arbiter(gestures: gate.admitted(ours, touched: touched), geometry: geometry)
            bindings = BindingTable(applied.config.bindings)
            touchDecides = ours.contains(where: gate.decidedByTouch)
            self.touched = touched
        }
    }

    /// `kernelState`: what a live device holds already (see `KernelTouchState`).
    /// `isolated`: what the daemon made of it (see `PanelPolicy`); by default, what the
    /// service would do under this configuration. `gate`: by default, the start mode's
    /// gestures. `displayRotation`: the display's, for a panel whose rotation follows it.
    public init(_ device: DeviceDescription, config: Configuration, kernelState: KernelTouchState? = nil,
                isolated: Bool? = nil, gate: GestureGate? = nil, displayRotation: QuarterTurn = .upright) throws(Refusal) {
        self.device = device
        applied = try Applied(device, config)
        self.gate = gate ?? GestureGate(mode: config.daemon.mode)
        self.displayRotation = displayRotation
        current = Setup(applied, self.gate, display: displayRotation, tool: device.tool)
        guard let touchProtocol = device.touchProtocol else { throw .noPositionAxes }
        decoder = TouchDecoder(geometry: current.geometry, touchProtocol: touchProtocol)
        if let kernelState { decoder.seed(kernelState) }
        let isolated = isolated ?? (PanelPolicy.use(device, isTwin: false, config: config, mode: .service) == .isolated)
        isolation = isolated ? Self.isolation(device, touchProtocol, config, kernelState) : nil
        updateBar()  // a panel that comes while touch is locked
    }

    /// How a device's units map to the screen under its `[[device]]` rule (inversions,
    /// size) turned by `rotation` clockwise; nil without position axes.
    public static func geometry(_ device: DeviceDescription, rule: DeviceRule?, rotation: QuarterTurn) -> DeviceGeometry? {
        let orientation = Orientation(rotation: rotation, invertX: rule?.invertX ?? false, invertY: rule?.invertY ?? false)
        return DeviceGeometry(device, sizeOverride: rule?.sizeMM, orientation: orientation)
    }

    private static func isolation(_ device: DeviceDescription, _ touchProtocol: TouchProtocol, _ config: Configuration,
                                  _ kernelState: KernelTouchState?) -> TouchDelivery? {
        let slots: Int
        switch touchProtocol {
        case .slotted(let count): slots = min(count, TouchDecoder.maximumContacts)
        case .singleTouch: slots = 0
        case .contactReports: return nil
        }
        let panel = kernelState.map { PanelState(slotCount: slots, kernel: $0) } ?? PanelState(slotCount: slots)
        return TouchDelivery(panel: panel, cancelsAsPalm: slots > 0, maxDelayMS: config.daemon.maxDelayMS)
    }

    /// Held-out evaluation: the stroke recognizers ignore the built-in templates `person`
    /// drew. False when that person drew none.
    public func leaveOutStrokeTemplates(of person: String) -> Bool {
        guard let matcher = current.arbiter.strokeMatcher else { return false }
        matcher.leftOutPerson = person
        return matcher.leavesOutAny
    }

    public var geometry: DeviceGeometry { current.geometry }
    public var fingersDown: Bool { decoder.fingersDown }
    /// A reload, or the gestures a gate change admits, wait for the sequence in flight, or
    /// for the next one to begin.
    public var reloadPending: Bool { stale }

    /// Feeds one input, as keyd's `kbd_process_events` does: first every deadline due by
    /// its time, each in a step of its own at its own time, then the input itself; `body`
    /// gets each step as it is made (the same storage: use it before returning), none for
    /// an event that only fills in the next frame. A
    /// `.deadline(time)` is only the first part. So the daemon's timer firing late, a
    /// replay that never waits and a test that feeds deadlines at random all make the same
    /// steps in the same order.
    public func step(_ input: PipelineInput, _ body: (Step) -> Void) {
        var ran: Timestamp?
        while let due = nextDeadline, due <= input.time {
            if let ran, due <= ran {
                // A deadline that stays due once run would spin here: a bug, said once.
                var stuck = Step(.deadline(due), nextDeadline: due)
                stuck.bugs.append("the deadline at \(fixed(due.seconds, decimals: 6)) s is still due once run")
                return body(stuck)
            }
            ran = due
            if take(.deadline(due)) { body(output) }
            takeGivenGate(body)
        }
        if case .deadline = input { return }
        if take(input) { body(output) }
        takeGivenGate(body)
    }

    /// A gate that a step's own action makes (a gesture that pauses, or switches mode),
    /// given while `step`'s body performs it: in force right after that step, before any
    /// deadline or event after it. Outside a step, give `.gate` to `step`.
    public func give(_ gate: GestureGate, at time: Timestamp) {
        gateGiven = (gate, time)
    }

    private func takeGivenGate(_ body: (Step) -> Void) {
        while let (gate, time) = gateGiven {
            gateGiven = nil
            if take(.gate(gate, at: time)) { body(output) }
        }
    }

    /// One input through the decoder, the recognizers, the bindings and the delivery,
    /// into `output`; false for an event that only fills in the frame to come (most of
    /// them): nothing to see.
    private func take(_ input: PipelineInput) -> Bool {
        output.frame = nil  // lets the decoder reuse the frame's storage in place
        takeChangesBetweenSequences()
        var frameEnded = false, completed = false
        var proximity: Bool?
        var underTouch: String?
        if case .event(let event) = input {
            isolation?.take(event)
            frameEnded = event.type == EventType.syn && event.code == SynCode.report
            // Asked only where the touch decides or the screen may be waking: most
            // events never pay for it.
            let noSequence = (current.touchDecides || mayWake) && !decoder.fingersDown && current.arbiter.nextDeadline == nil
            completed = decoder.process(event)
            if completed, noSequence, decoder.fingersDown {
                startWaking(at: event.time)
                if !waking, current.touchDecides { underTouch = chooseByFirstTouch(decoder.frame) }
            }
            proximity = device.tool == .pen ? Self.proximity(event) : nil
            // Most events only fill in the frame the next SYN_REPORT completes; a frame
            // without touches still goes to the twin.
            if !completed, proximity == nil, !(frameEnded && isolation != nil) { return false }
        }
        output.clear(for: input)
        output.penNear = proximity
        output.underTouch = underTouch
        output.wakes = wakes
        output.stillDark = stillDark
        wakes = nil
        stillDark = nil
        let arbiter = current.arbiter
        arbiter.explaining = explaining
        switch input {
        case .event:
            if completed, waking { wakeOn(decoder.frame) } else if completed { arbitrate(decoder.frame) }
        case .deadline(let time):
            arbiter.advance(to: time)
            collect()
        case .cancel(let time):
            cancelTouches(at: time)
        case .abandon(let why, let time):
            abandon(why, at: time)
        case .silence(let on, let time):
            silence(on, at: time)
        case .gate(let gate, let time):
            gateChanged(gate, at: time)
        }
        deliver(input, frameEnded: frameEnded)
        nextDeadline = Timestamp.earlier(current.arbiter.nextDeadline, isolation?.nextDeadline)
        output.nextDeadline = nextDeadline
        return true
    }

    /// BTN_TOOL_PEN or BTN_TOOL_RUBBER: the pen came near (1) or left (0).
    private static func proximity(_ event: InputEvent) -> Bool? {
        guard event.type == EventType.key, event.code == KeyCode.btnToolPen || event.code == KeyCode.btnToolRubber else { return nil }
        return event.value != 0
    }

    /// Silenced: the gestures of the sequence under way are cancelled (its touches run on,
    /// to the twin) and none fires until it is no longer; then gestures fire again from
    /// the next sequence.
    private func silence(_ on: Bool, at time: Timestamp) {
        guard on != silenced else { return }
        silenced = on
        updateBar()
        guard on else {
            stale = true
            return
        }
        // A waking sequence's touches never reached the recognizers: nothing to cancel.
        if decoder.fingersDown, !waking {
            var cancelled = decoder.frame
            cancelled.time = time
            cancelled.touches = cancelled.touches.filter { $0.phase.isDown }.map { touch in
                var touch = touch
                touch.phase = .cancelled
                touch.previousLocation = touch.location
                touch.timestamp = time
                return touch
            }
            current.arbiter.process(cancelled)
            collect()
        }
        current = Setup(applied, gate, display: displayRotation, tool: device.tool, silenced: true)
    }

    /// Whether the twin gets touches: none under the touch lock, nor while the palm is
    /// silenced where the rule says so.
    private func updateBar() {
        if gate.touchLocked {
            isolation?.bar(because: "the touch lock is on")
        } else if silenced, applied.rule?.withholdPalm == true {
            isolation?.bar(because: "the palm is withheld while the pen is near (withhold_palm)")
        } else {
            isolation?.unbar()
        }
    }

    /// A sequence begins: the gestures for the window under its first touch are made for
    /// the application there, unless they were already. When explaining, says which.
    private func chooseByFirstTouch(_ frame: TouchFrame) -> String? {
        guard let windows = gate.windows, let first = frame.touches.first(where: { $0.phase == .began }) else { return nil }
        let touched = windows.app(atFraction: first.location.x, first.location.y)
        if touched != current.touched {
            current = Setup(applied, gate, display: displayRotation, tool: device.tool, silenced: silenced, touched: touched)
        }
        guard explaining else { return nil }
        let summary = gate.appSummary(applied.gestures(for: device.tool), touched: .some(touched))
        return "the first touch is on \(touched.map { printable($0.description) } ?? "no window") (\(windows.source))\(summary.map { "; \($0)" } ?? "")"
    }

    // MARK: The waking touch

    /// Says why a sequence that began in this step wakes the screen, for the step.
    @exclusivity(unchecked) private var wakes: String?
    /// Says why a sequence that began in this step on a dark screen does not wake it.
    @exclusivity(unchecked) private var stillDark: String?

    /// Whether a sequence beginning now may be a waking one: only then is its start looked for.
    private var mayWake: Bool { applied.config.daemon.wakeLatch && latch.mayWake(screenDark: screenDark) }

    /// A sequence begins: the latch says whether it wakes the screen.
    private func startWaking(at time: Timestamp) {
        guard applied.config.daemon.wakeLatch else { return }
        switch latch.begin(at: time, screenDark: screenDark, screenName: screenName) {
        case .acts:
            break
        case .stillDark(let why):
            stillDark = why
        case .wakes(let why):
            wakes = why
            isolation?.wake(because: why)
        }
    }

    /// A frame of a waking sequence: shown, not arbitrated; its last lift ends it.
    private func wakeOn(_ frame: TouchFrame) {
        output.frame = frame
        guard !frame.touches.contains(where: \.phase.isDown) else { return }
        latch.lifted(at: frame.time, guardMS: applied.config.daemon.wakeGuardMS)
    }

    /// The screens as the kernel (or a timeline) says now: whether the next sequence wakes
    /// this panel's screen. A sequence under way stays what it began as.
    public func setScreens(_ screens: Screens) {
        self.screens = screens
        screenDark = screens.isDark(forOutput: applied.rule?.output)
        latch.screen(dark: screenDark)
    }

    /// The name of the screen it belongs to, when one is known (see `Screens`).
    public var screenName: String? { screens.name(forOutput: applied.rule?.output) }

    /// The gesture furthest toward firing in the sequence under way (the overlay's).
    public var lead: FeedbackLead { current.arbiter.lead() }
    /// Each gesture in the running for the sequence under way (see `Arbiter.inPlay`).
    public func gesturesInPlay(_ body: (_ gesture: String, _ state: RecognizerState, _ progress: Double) -> Void) {
        current.arbiter.inPlay(body)
    }
    /// The application of the window at `point` (normalized, as touches are) where the
    /// desktop says where its windows are, else the one in front.
    public func app(at point: Point) -> AppInFront? {
        guard let windows = gate.windows else { return gate.app }
        return windows.app(atFraction: point.x, point.y)
    }
    /// The output its rule puts it on, if any.
    public var ruleOutput: String? { applied.rule?.output }

    /// The twin's share of the step.
    private func deliver(_ input: PipelineInput, frameEnded: Bool) {
        guard let isolation else { return }
        switch input {
        case .event(let event):
            isolation.decide(at: event.time, frameEnded: frameEnded, events: output.events, recognizers: current.arbiter.recognizers)
        case .deadline(let time):
            isolation.decide(at: time, frameEnded: false, events: output.events, recognizers: current.arbiter.recognizers)
        case .cancel(let time), .abandon(_, let time):
            isolation.cancel(at: time)
        case .silence(_, let time), .gate(_, let time):
            isolation.decide(at: time, frameEnded: false, events: output.events, recognizers: current.arbiter.recognizers)
        }
        isolation.takeTwinEvents(&output.twin)
        isolation.takeNotes(&output.delivery)
        // Empty on every frame but a buggy one: appending nothing still costs a call.
        if !isolation.bugsOfLastCall.isEmpty { output.bugs.append(contentsOf: isolation.bugsOfLastCall) }
    }

    /// A new configuration: the recognizers and bindings of the sequence in flight finish
    /// it; the new ones take the next sequence (at once when none is in flight). Throws,
    /// changing nothing, when the new configuration does not take this device.
    public func reload(_ config: Configuration) throws(Refusal) {
        applied = try Applied(device, config)
        setScreens(screens)  // the new rule may put it on another screen
        updateBar()
        stale = true
        takeChangesBetweenSequences()
    }

    /// Another mode, a pause or a lock, in force at once: the gestures it no longer
    /// admits are taken out of the sequence under way (failed while deciding, cancelled
    /// under way, so none of them begins after it, not even a waiting multi-tap), while
    /// those it admits newly take the next sequence. The recognizers are made when it
    /// begins, so that a flood of changes costs one setup.
    private func gateChanged(_ gate: GestureGate, at time: Timestamp) {
        guard gate != self.gate else { return }
        let appOnly = gate.sameApart(fromApp: self.gate)
        self.gate = gate
        updateBar()
        stale = true
        // Another application in front: the sequence under way keeps the gestures it began with.
        if appOnly { return }
        // Between sequences nothing follows a touch or waits: the next input makes them.
        guard decoder.fingersDown || current.arbiter.nextDeadline != nil else { return }
        current.arbiter.exclude(at: time) { gate.exclusion(of: $0) }
        collect()
    }

    /// Every touch down ends as cancelled (device gone, recording ended, a sequence abandoned).
    private func cancelTouches(at time: Timestamp) {
        if decoder.cancelAll(at: time) { waking ? wakeOn(decoder.frame) : arbitrate(decoder.frame) }
    }

    /// The sequence under way ends here: its touches cancelled, then every gesture still
    /// deciding or waiting taken out of it, so that none fires later; the next sequence
    /// has its recognizers made anew.
    private func abandon(_ why: String, at time: Timestamp) {
        cancelTouches(at: time)
        guard current.arbiter.nextDeadline != nil else { return }
        stale = true
        current.arbiter.exclude(at: time) { _ in why }
        collect()
    }

    /// The display turned (the accelerometer, a compositor's hook): a panel whose
    /// rotation follows it measures the next sequence, never one under way, turned.
    public func setDisplayRotation(_ turn: QuarterTurn) {
        guard turn != displayRotation else { return }
        displayRotation = turn
        if applied.rotation.followsDisplay { stale = true }
    }

    /// How the configuration says its rotation is known.
    public var rotationSetting: RotationSetting { applied.rotation }

    /// The rotation its next touch sequence is measured with.
    public var rotation: QuarterTurn { applied.rotation.rotation(display: displayRotation) }

    private func arbitrate(_ frame: TouchFrame) {
        output.frame = frame
        current.arbiter.process(frame)
        collect()
    }

    private func collect() {
        let arbiter = current.arbiter
        let first = output.events.endIndex
        output.events.append(contentsOf: arbiter.events)
        if device.tool != .finger {
            for i in first..<output.events.endIndex { output.events[i].tool = device.tool }
        }
        output.transitions.append(contentsOf: arbiter.transitions)
        if !arbiter.bugs.isEmpty { output.bugs.append(contentsOf: arbiter.bugs) }
        for event in output.events[first...] {
            // Under the touch lock only the gestures that end it fire; one that the lock,
            // the pause or the mode would keep out otherwise does that alone.
            let onlyTouchLock = gate.admitsOnlyToEndTouchLock(event.name, among: arbiter.recognizers.lazy.map(\.spec))
            current.bindings.appendActions(for: event, device: device.name, onlyTouchLock: onlyTouchLock, to: &output.actions)
        }
    }

    private func takeChangesBetweenSequences() {
        guard stale, !decoder.fingersDown, current.arbiter.nextDeadline == nil else { return }
        stale = false
        current = Setup(applied, gate, display: displayRotation, tool: device.tool, silenced: silenced)
        decoder.reorient(current.geometry)
        nextDeadline = isolation?.nextDeadline
    }
}
