import Bindings
import Config
import Gestures
import TouchCore

/// Everything above one panel, keyd's `kbd_process_events` for a whole seat: the panels'
/// pipelines by node, the mode, the pause and the lock (`ModeController`), pens and the
/// palms they silence (`Palm`), the display's and each panel's rotation, what a reload
/// does to each panel, and what gestured's keyboard and pointer write. No I/O and no
/// clock: `step` takes one input, first doing whatever waits on time up to the input's
/// (in one order: each panel's deadline and its palm's fade, by node; then the mode's and
/// the pause's; then a double click's second click), and says what to do as
/// `SeatEffect`s; `nextDeadline` says when to step again if nothing comes. The daemon,
/// `run --replay` and `replay` all step it.
///
/// Its state is reached only through its own methods, one call at a time, never while
/// another of them holds it: the run-time exclusivity checks are left out of its stored
/// properties (`@exclusivity(unchecked)`), where they cost a storm's events 30 % of their time.
public final class Seat {
    /// The configuration in force: the machine's, with the session in front's user's
    /// gestures (`Configuration.merging`).
    @exclusivity(unchecked) public internal(set) var config: Configuration
    /// The machine's configuration (the daemon's file), as last given.
    @exclusivity(unchecked) public private(set) var machine: Configuration
    /// The session in front and what each session's agent handed over (the system service).
    @exclusivity(unchecked) var sessions = SeatSessions()
    /// Who reported the application in front on the system bus, while it stands.
    @exclusivity(unchecked) var appReporter: BusPeer?
    /// Who reported where the windows are on the bus, while it stands.
    @exclusivity(unchecked) var windowsReporter: BusPeer?
    /// The key names a user's `keys` may use (libevdev's, from the OS edge).
    let keyCodes: () -> KeyCodes
    /// What the seat reads for: the service acts; a monitor reads beside it.
    public let mode: ReadingMode
    @exclusivity(unchecked) public internal(set) var control: ModeController
    /// The display's rotation, for panels whose rotation is auto or external: from the
    /// accelerometer, or set on the bus.
    @exclusivity(unchecked) public private(set) var displayRotation = QuarterTurn.upright
    /// The screens as last said, and what was said of them.
    @exclusivity(unchecked) var screenKnowledge = SeatScreens()
    public var screens: Screens { screenKnowledge.now }
    /// What logind has said of the lock (it fails closed).
    @exclusivity(unchecked) public private(set) var lock = LockKnowledge.neverHeard(said: false)
    /// Whether the session served is in front of the seat (a user's own daemon).
    @exclusivity(unchecked) public private(set) var presence = SeatPresence.inFront
    /// Whether the pipelines say why, and the seat logs its debug lines: for the debug
    /// log, and whenever steps are shown.
    @exclusivity(unchecked) public var explaining = false {
        didSet { for panel in panels { panel.pipeline.explaining = pipelinesExplain } }
    }
    /// Which steps become `.step` effects.
    @exclusivity(unchecked) public var stepsShown = StepsShown.every
    /// Who watches the gestures being decided (the studio), and what each panel's
    /// sequence decided so far for it.
    @exclusivity(unchecked) public internal(set) var inspector: Inspector?
    @exclusivity(unchecked) var inspection = InspectionMemory()
    /// In node order, so that what happens at one time happens in one order everywhere.
    @exclusivity(unchecked) public private(set) var panels: [SeatPanel] = []
    @exclusivity(unchecked) private var byNode: [String: SeatPanel] = [:]
    /// The panel of the last event, and its node: the next is most likely its too (no
    /// hashing then). Not counted: `byNode` holds it, and `drop` forgets it.
    @exclusivity(unchecked) private var lastPanel: Unmanaged<SeatPanel>?
    @exclusivity(unchecked) private var lastNode = ""
    /// A double click's second click, when it is due, and whose binding it is.
    @exclusivity(unchecked) var secondClick: (due: Timestamp, click: Click, location: Point, owner: BindingOwner)?
    /// What the last step decided.
    @exclusivity(unchecked) public internal(set) var effects = SeatEffects()
    /// What the keyboard or pointer gets, made anew for each action (`pointerEvents`: the
    /// pointer's, when an action writes to both).
    @exclusivity(unchecked) var virtualEvents: [InputEvent] = []
    @exclusivity(unchecked) private var pointerEvents: [InputEvent] = []
    /// What gestured's keyboard and pointer hold for the gestures under way.
    @exclusivity(unchecked) public private(set) var held = HeldInput()
    /// The gesture whose fingers are on gestured's virtual touchpad.
    @exclusivity(unchecked) var touchpad = TouchpadFingers()
    /// A fling's wheel, gliding on after the lift, and whose binding it is: stopped by the
    /// next touch.
    @exclusivity(unchecked) var glide: (scroll: KineticScroll, owner: BindingOwner)?
    /// Tagged edge swipes followed to their lift, for the Progress signal.
    @exclusivity(unchecked) var progress = ProgressStream()
    /// The overlay's updates, paced (`overlay = true`).
    @exclusivity(unchecked) var feedback = FeedbackStream()
    /// Whether the seat is in use (`idle_s`), and the pace of saying its last touch.
    @exclusivity(unchecked) public internal(set) var idleness = Idleness.unstarted
    @exclusivity(unchecked) var lastTouchPace = LastTouchPace()
    /// The last touch said on the bus (the LastTouch property), on the seat's clock.
    @exclusivity(unchecked) public internal(set) var lastTouchSaid: Timestamp?
    /// A panel's step is being performed: a gate it changes reaches the others once it ends.
    @exclusivity(unchecked) private var feeding = false
    /// When the gate changed and the panels have not all been given it yet.
    @exclusivity(unchecked) private var gateChanged: Timestamp?
    /// `nextDeadline`, while nothing it depends on may have changed since it was found:
    /// most events only fill in a frame and change nothing.
    @exclusivity(unchecked) private var due: Timestamp?
    @exclusivity(unchecked) var dueKnown = false

    public init(config: Configuration, mode: ReadingMode = .service, keyCodes: @escaping () -> KeyCodes = { KeyCodes() }) {
        self.config = config
        machine = config
        self.mode = mode
        self.keyCodes = keyCodes
        control = ModeController(config)
        virtualEvents.reserveCapacity(64)
        pointerEvents.reserveCapacity(16)
    }

    public func panel(_ node: String) -> SeatPanel? { byNode[node] }

    func add(_ panel: SeatPanel) {
        dueKnown = false
        byNode[panel.node] = panel
        panels.insert(panel, at: panels.firstIndex { $0.node > panel.node } ?? panels.endIndex)
    }

    func drop(_ panel: SeatPanel) {
        dueKnown = false
        if lastPanel?.toOpaque() == Unmanaged.passUnretained(panel).toOpaque() { lastPanel = nil }
        byNode[panel.node] = nil
        panels.removeAll { $0 === panel }
    }

    /// When to step (with `.deadline`) if no input comes first; nil when nothing waits on time.
    public var nextDeadline: Timestamp? {
        if !dueKnown {
            due = Timestamp.earlier(Timestamp.earlier(control.nextDeadline, nextTouchDeadline), nextIdleDeadline)
            dueKnown = true
        }
        return due
    }

    /// When a panel or the pointer still has something to do: what a replay waits for
    /// before it ends (not for the mode's timeout or the pause's end).
    public var nextTouchDeadline: Timestamp? {
        panels.reduce(Timestamp.earlier(Timestamp.earlier(Timestamp.earlier(Timestamp.earlier(secondClick?.due, touchpad.due), feedback.due), glide?.scroll.due),
                                         progress.due)) {
            Timestamp.earlier(Timestamp.earlier($0, $1.pipeline.nextDeadline), $1.palm.deadline)
        }
    }

    /// Takes one input; what it decided is `effects` until the next step, for the edge to
    /// perform (`inDrainOrder`) before it steps again. Throws only for a control request
    /// it refuses, having changed nothing but what was due by then (and said it in `effects`).
    public func step(_ input: SeatInput) throws(ControlRefusal) {
        effects.removeAll()
        if case .event(let node, let event) = input { return take(event, of: node) }
        runDeadlines(through: input.time)
        // Anything but an event may change any deadline (a reload, a gate, a rotation, a
        // panel coming or going): they are found again. An event's panel says itself.
        defer { dueKnown = false }
        switch input {
        case .deadline, .event:
            break
        case .appeared(let device, let time):
            appear(device, at: time)
        case .isolationFailed(let node, let error, let time):
            isolationFailed(node, error, at: time)
        case .calibrated(let node, let matrix, let time):
            recalibrate(node, matrix, at: time)
        case .gone(let node, let why, let time):
            if let panel = byNode[node] { remove(panel, why: why, at: time) }
        case .ended(let node, let time):
            if let panel = byNode[node], panel.pipeline.fingersDown { feed(.cancel(time), to: panel) }
        case .stopping(let time):
            letGoOfEverything(at: time)
        case .reload(let next, let time):
            machine = next
            putInForce(at: time)
            idleness.start(at: time)
        case .request(let request, let why, let time):
            try take(request, why: why, at: time)
        case .locked(let locked, let why, let time):
            lock.heard()
            changed(control.setLocked(locked, why: why).map { [$0] } ?? [], at: time)
        case .logindSilent(let why, let time):
            let (say, everHeard) = lock.silence()
            if say { changed([ControlChange(kind: .logindSilent(locked: control.gate.locked, everHeard: everHeard), reason: why)], at: time) }
        case .sessionInFront(let inFront, let why, let time):
            let next = SeatPresence(inFront: inFront)
            guard next != presence else { break }
            presence = next
            changed([ControlChange(kind: .session(inFront: inFront), reason: why)], at: time)
            if inFront { effects.append(.rescan) } else {
                endInspection("another session is in front")
                leavePanels(at: time)
            }
        case .appInFront(let app, let why, let time):
            setApp(app, why: why, at: time)
        case .reportedApp(let app, let peer, let why, let time):
            guard peer.ofTheUser || sessions.actsForTheActive(peer) else { throw .notTheActiveSession }
            appReporter = peer
            setApp(app, why: why, at: time)
        case .activeSession(let session, let why, let time):
            if session != sessions.active { switchSession(to: session, why: why, at: time) }
        case .push(let push, let peer, let time):
            try take(push, by: peer, at: time)
        case .peerLeft(let name, let time):
            if appReporter?.name == name {
                appReporter = nil
                setApp(nil, why: "its reporter left the bus", at: time)
            }
            if windowsReporter?.name == name {
                windowsReporter = nil
                setWindows(nil, why: "their reporter left the bus", at: time)
            }
            if inspector?.name == name { endInspection("it left the bus") }
            if sessions.peerLeft(name), let active = sessions.active {
                changed([ControlChange(kind: .agentLeft(active), reason: "the system bus")], at: time)
            }
        case .windows(let windows, let why, let time):
            setWindows(windows, why: why, at: time)
        case .reportedWindows(let windows, let peer, let why, let time):
            guard peer.ofTheUser || sessions.actsForTheActive(peer) else { throw .notTheActiveSession }
            windowsReporter = peer
            setWindows(windows, why: why, at: time)
        case .screens(let screens, let why, let time):
            guard screenKnowledge.set(screens) else { break }
            for panel in panels { panel.pipeline.setScreens(screens) }
            changed([ControlChange(kind: .screens(screens), reason: why)], at: time)
        case .displayRotated(let turn, let why, let time):
            rotateDisplay(turn, why: why, at: time)
        case .sleeping(let asleep, let why, let time):
            guard asleep else { return effects.append(.log(.info, "awake (\(why))")) }
            effects.append(.log(.info, "going to sleep (\(why)): touches under way cancelled, what gestured holds let go"))
            letGoOfEverything(at: time)
        case .tabletMode(let tablet, let why, let time):
            changed(control.setTablet(tablet, why: why).map { [$0] } ?? [], at: time)
        case .inspect(let request, let peer, let time):
            try inspect(request, by: peer, at: time)
        case .followed(let heard, let time):
            changed(control.follow(mode: heard.mode, paused: heard.paused, locked: heard.locked, touchLocked: heard.touchLocked,
                                   why: "the service"), at: time)
            if let turn = heard.rotation { rotateDisplay(turn, why: "the service", at: time) }
            if let (node, turn) = heard.panelRotation, let panel = byNode[node] {
                rotate(panel, turn, why: "the service, for this panel", at: time)
            }
        }
    }

    /// Touches under way are cancelled (an isolated panel's twin sees them end) and
    /// whatever gestured's keyboard and pointer hold goes up: at a stop, before a sleep.
    private func letGoOfEverything(at time: Timestamp) {
        for panel in panels where panel.pipeline.fingersDown { feed(.cancel(time), to: panel) }
        glide = nil
        release(nil)
    }

    /// Thousands a second: the shortest way.
    private func take(_ event: InputEvent, of node: String) {
        if let due = nextDeadline, due <= event.time { runDeadlines(through: event.time) }
        // Another session's touches (a recording's, live panels being let go).
        guard presence == .inFront else { return }
        if let last = lastPanel, node == lastNode {
            return last._withUnsafeGuaranteedRef { feed(.event(event), to: $0) }
        }
        guard let panel = byNode[node] else { return }
        lastPanel = Unmanaged.passUnretained(panel)
        lastNode = node
        feed(.event(event), to: panel)
    }

    /// Everything due by `time`, earliest first.
    private func runDeadlines(through time: Timestamp) {
        var ran: Timestamp?
        while let due = nextDeadline, due <= time {
            if let ran, due <= ran {
                // Something that stays due once run would spin here: a bug, said each time.
                return effects.append(.log(.error, "bug: a deadline at \(fixed(due.seconds, decimals: 6)) s is still due once run"))
            }
            ran = due
            for panel in panels {
                if panel.pipeline.nextDeadline.map({ $0 <= due }) ?? false { feed(.deadline(due), to: panel) }
                if panel.palm.advance(to: due) { feed(.silence(false, at: due), to: panel) }
            }
            if let controlDue = control.nextDeadline, controlDue <= due { changed(control.advance(to: due), at: due) }
            if let idleDue = nextIdleDeadline, idleDue <= due { advanceIdleness(to: due) }
            if let update = feedback.due, update <= due {
                // Taken even with no one to send them to (the agent left): else they stay due.
                for frame in feedback.take(by: due) { send(frame) }
            }
            if let frame = touchpad.due, frame <= due {
                virtualEvents.removeAll(keepingCapacity: true)
                touchpad.advance(to: due, into: &virtualEvents)
                effects.write(.touchpad, virtualEvents)
            }
            if let update = progress.due, update <= due {
                for update in progress.take(by: due) { say(update) }
            }
            if var gliding = glide, let next = gliding.scroll.due, next <= due {
                if sessions.inFront(gliding.owner) { writeWheel(gliding.scroll.advance(to: due)) }
                glide = gliding.scroll.due == nil || !sessions.inFront(gliding.owner) ? nil : gliding
            }
            if let second = secondClick, second.due <= due {
                secondClick = nil
                virtualEvents.removeAll(keepingCapacity: true)
                VirtualInput.append(second.click, at: second.location, to: &virtualEvents)
                effects.write(.pointer, virtualEvents)
            }
            dueKnown = false
        }
    }

    // MARK: A panel's steps

    func feed(_ input: PipelineInput, to panel: SeatPanel) {
        // A pen's step feeds its touchscreens from within: only the outermost spreads a gate.
        let outer = feeding
        feeding = true
        let pipeline = panel.pipeline
        let before = pipeline.nextDeadline
        pipeline.step(input) { [unowned(unsafe) self, unowned(unsafe) panel] in take($0, of: panel) }
        if pipeline.nextDeadline != before { dueKnown = false }
        feeding = outer
        if !outer, gateChanged != nil { spreadGate() }
    }

    /// Shown first, then what someone waits for (commands, signals, keys, the twin), then
    /// what it changed of the mode or the pause.
    private func take(_ step: Step, of panel: SeatPanel) {
        defer { dueKnown = false }  // a gesture, a click or a change of mode may move it
        if stepsShown == .every ? !step.isQuiet || !step.bugs.isEmpty : step.isNotable {
            effects.append(.step(node: panel.node, geometry: panel.pipeline.geometry, step))
        }
        let time = step.input.time
        if let near = step.penNear { penMoved(near, on: panel, at: time) }
        if let why = step.wakes { wake(panel, why, at: time) }
        if let frame = step.frame, frame.touches.contains(where: { $0.phase == .began }) {
            glide = nil  // a touch stops a glide, as a finger stops a scroll view
            touched(at: time)
        }
        if let why = step.stillDark, screenKnowledge.sayStillDark() {
            effects.append(.log(.warning, "\(panel.node): \(why)"))
        }
        if !step.events.isEmpty { control.gestureFired(at: time) }
        let performed = step.actions.filter { mayPerform($0) && !heldBack($0) }
        for owned in performed { render(owned.action, of: owned.owner, panel, at: time) }
        // An abandoned sequence's last frame is the leaving owner's: the next one's overlay
        // is not told of it.
        if updates(step) {
            var frame = feedback.frame(panel: panel.node, output: panel.pipeline.screenName, step: step,
                                       touchLocked: control.gate.touchLocked) { panel.pipeline.lead }
            if inspector != nil { frame.detail = inspection.detail(of: step, on: panel.node, panel.pipeline) }
            let startsCommand = performed.contains { if case .run = $0.action { true } else { false } }
            if let now = feedback.offer(frame, at: time, besideCommand: startsCommand) { send(now) }
        }
        if progress.isFollowing || !step.events.isEmpty {
            for update in progress.updates(of: step, on: panel.node, at: time, tagged: tagAndEdge) { say(update) }
        }
        if !step.twin.isEmpty { effects.write(twinOf: panel.node, step.twin) }
        changed(performed.compactMap { sessions.inFront($0.owner) ? control.perform($0.action, at: time) : nil }, by: panel, at: time)
    }

    /// A gesture's Progress tag and its edge (looked up when it fires, not a frame).
    private func tagAndEdge(_ gesture: String) -> (tag: String, edge: Edge)? {
        guard let spec = config.gestures.first(where: { $0.name == gesture }), let tag = spec.progressTag, let edge = spec.edge else { return nil }
        return (tag, edge)
    }

    /// A Progress update, for the agent of the session in front to say on its session bus.
    func say(_ update: ProgressUpdate) {
        if let agent = sessions.activeGiven?.agent { effects.append(.progress(update, agent: agent)) }
    }

    /// Whether an action is performed: one of the machine's, or of the session in front's
    /// user; another session's is dropped, but for what lets go of the keys, buttons and touchpad fingers it held.
    private func mayPerform(_ owned: OwnedAction) -> Bool {
        guard case .session(let id) = owned.owner, !sessions.inFront(owned.owner) else { return true }
        switch owned.action {
        case .hold(let hold) where hold.moment == .release: return true
        case .touchpad(let touchpad) where touchpad.moment == .end: return true
        default: break
        }
        effects.append(.dropped(owned.action, session: id, firstSinceSwitch: sessions.sayNotInFront(id)))
        return false
    }

    /// An action as what performs it: a command, a signal, or the events of gestured's
    /// keyboard or pointer. A session's command or signal goes to its agent: the service
    /// never runs a user's command, nor says a user's gesture on the system bus.
    private func render(_ action: Action, of owner: BindingOwner, _ panel: SeatPanel, at time: Timestamp) {
        switch action {
        case .run(let command):
            guard owner == .machine else { return toAgent(.command, command.binding, command.environment) }
            effects.append(.run(command))
        case .signal(let event, let device, let step):
            guard owner == .machine else {
                // Emitted by the agent on the session bus.
                return toAgent(.signal, event.name, GestureEnvironment.assignments(event, device: device, step: step))
            }
            effects.append(.signal(event, device: device, step: step))
        case .keys(let binding, let keys):
            if explaining { effects.append(.log(.debug, "\(binding): keys \(keys.text)")) }
            virtualEvents.removeAll(keepingCapacity: true)
            VirtualInput.append(keys, holding: held.isEmpty ? [] : held.keys, to: &virtualEvents)
            if !virtualEvents.isEmpty { effects.write(.keyboard, virtualEvents) }
        case .hold(let hold):
            render(hold, of: panel)
        case .touchpad(let action):
            render(action, of: panel, at: time)
        case .click(let binding, let click, let location):
            if explaining {
                effects.append(.log(.debug, "\(binding): \(click.count == 2 ? "double " : "")\(click.button.rawValue) click at x=\(fixed(location.x, decimals: 4)) y=\(fixed(location.y, decimals: 4))"))
            }
            virtualEvents.removeAll(keepingCapacity: true)
            VirtualInput.append(click, at: location, to: &virtualEvents)
            secondClick = click.count > 1 ? (time + Double(VirtualInput.doubleClickGapMicroseconds) / 1000, click, location, owner) : nil
            effects.write(.pointer, virtualEvents)
        case .scroll(let turn):
            writeWheel(turn)
        case .fling(let fling):
            glide = KineticScroll(fling, at: time).map { ($0, owner) }
            if explaining, glide != nil {
                effects.append(.log(.debug, "\(fling.binding): glides on at \(fixed(fling.velocity.length, decimals: 0)) mm/s, slowing"))
            }
        case .mode, .pause, .touchLock:
            break  // the controller's (see take(_:of:))
        }
    }

    /// A held gesture's begin, move or end on gestured's keyboard and pointer: pressed
    /// keys before the button (super is down when the drag starts), released after it.
    private func render(_ hold: HoldAction, of panel: SeatPanel) {
        let holder = GestureHolder(panel: panel.node, binding: hold.binding)
        virtualEvents.removeAll(keepingCapacity: true)
        pointerEvents.removeAll(keepingCapacity: true)
        switch hold.moment {
        case .press:
            if explaining { effects.append(.log(.debug, "\(hold.binding): holds \(hold.hold.text)\(hold.hold.pointer ? ", the pointer following" : "")")) }
            held.press(hold.hold, by: holder, at: hold.location, keyboard: &virtualEvents, pointer: &pointerEvents)
            writeHeld(keyboardFirst: true)
        case .follow:
            held.follow(holder, to: hold.location, pointer: &pointerEvents)
            writeHeld(keyboardFirst: false)
        case .release:
            if explaining { effects.append(.log(.debug, "\(hold.binding): lets go of \(hold.hold.text)")) }
            held.release(holder, keyboard: &virtualEvents, pointer: &pointerEvents)
            writeHeld(keyboardFirst: false)
        }
    }

    private func writeWheel(_ turn: ScrollAction) {
        if explaining { effects.append(.log(.debug, "\(turn.binding): wheel \(turn.vertical) up, \(turn.horizontal) right (120 a notch)")) }
        virtualEvents.removeAll(keepingCapacity: true)
        VirtualInput.append(turn, to: &virtualEvents)
        if !virtualEvents.isEmpty { effects.write(.pointer, virtualEvents) }
    }

    /// A gesture's fingers on the virtual touchpad: one gesture at a time, the others'
    /// fingers left off it (said in the debug log).
    private func render(_ action: TouchpadAction, of panel: SeatPanel, at time: Timestamp) {
        let holder = GestureHolder(panel: panel.node, binding: action.binding)
        virtualEvents.removeAll(keepingCapacity: true)
        switch action.moment {
        case .begin:
            let took = touchpad.begin(action.touches, by: holder, at: time, into: &virtualEvents)
            if explaining {
                effects.append(.log(.debug, took ? "\(action.binding): \(action.touches.count) fingers on the touchpad"
                    : "\(action.binding): not on the touchpad: \(touchpad.holder.map { "\($0.binding)'s fingers are on it" } ?? "\(action.touches.count) fingers")"))
            }
        case .move:
            touchpad.move(action.touches, by: holder, at: time, into: &virtualEvents)
        case .end:
            touchpad.end(by: holder, into: &virtualEvents)
        }
        if !virtualEvents.isEmpty { effects.write(.touchpad, virtualEvents) }
    }

    /// What a panel's gestures still hold (nil: every panel's) goes up, and their fingers
    /// leave the touchpad: the panel goes, or the daemon stops. Their gestures'
    /// cancellation has done it already, unless something ended them without one.
    func release(_ panel: SeatPanel?) {
        if let holder = touchpad.holder, panel == nil || holder.panel == panel?.node {
            virtualEvents.removeAll(keepingCapacity: true)
            touchpad.end(by: nil, into: &virtualEvents)
            effects.write(.touchpad, virtualEvents)
        }
        guard !held.isEmpty else { return }
        virtualEvents.removeAll(keepingCapacity: true)
        pointerEvents.removeAll(keepingCapacity: true)
        let holders = held.release(panel: panel?.node, keyboard: &virtualEvents, pointer: &pointerEvents)
        guard !holders.isEmpty else { return }
        effects.append(.log(.info, "let go of what \(holders.map(\.binding).joined(separator: ", ")) held"))
        writeHeld(keyboardFirst: false)
    }

    private func writeHeld(keyboardFirst: Bool) {
        if keyboardFirst, !virtualEvents.isEmpty { effects.write(.keyboard, virtualEvents) }
        if !pointerEvents.isEmpty { effects.write(.pointer, pointerEvents) }
        if !keyboardFirst, !virtualEvents.isEmpty { effects.write(.keyboard, virtualEvents) }
    }

    /// A touch sequence began on a dark screen: nothing fires, an isolated panel's twin
    /// gets none of it, so the desktop does not see it and is woken by gestured: with
    /// `wake_command`, or by gestured's keyboard pressing KEY_WAKEUP (see
    /// `VirtualInput.appendWake`). A panel read beside applications wakes the desktop
    /// itself. Said once for each change of screens.
    private func wake(_ panel: SeatPanel, _ why: String, at time: Timestamp) {
        if screenKnowledge.sayWoke() { effects.append(.log(.info, "\(panel.node): \(why)")) }
        guard panel.isolated, panel.pipeline.screenDark else { return }
        if let command = config.daemon.wakeCommand {
            return effects.append(.run(CommandAction(binding: "wake_command", command: command, environment: [], maxRunning: 1)))
        }
        virtualEvents.removeAll(keepingCapacity: true)
        VirtualInput.appendWake(to: &virtualEvents)
        effects.write(.keyboard, virtualEvents)
    }

    /// A pen came near or left (or went away): the palms of the touchscreens of its group.
    func penMoved(_ near: Bool, on pen: SeatPanel, at time: Timestamp) {
        guard let group = pen.device.group else { return }
        for panel in panels where panel !== pen && panel.device.group == group && panel.pipeline.device.tool == .finger {
            let before = panel.palm
            panel.palm.pen(near: near, at: time, fadeMS: config.daemon.palmAfterPenMS)
            guard panel.palm != before else { continue }
            if explaining {
                effects.append(.log(.debug, "\(panel.name): the pen \(near ? "is near: its touches fire no gesture" : "left: gestures again \(fixed(config.daemon.palmAfterPenMS, decimals: 0)) ms after")"))
            }
            if panel.palm.silenced != panel.pipeline.silenced { feed(.silence(panel.palm.silenced, at: time), to: panel) }
        }
    }

    // MARK: The gate: mode, pause, lock

    /// Says what changed and gives every panel the new gate: the panel whose step made
    /// it right after that step, the others once the step is performed.
    func changed(_ changes: [ControlChange], by panel: SeatPanel? = nil, at time: Timestamp) {
        guard !changes.isEmpty else { return }
        for change in changes { effects.append(.control(change, at: time)) }
        if config.daemon.keepTouchLock, changes.contains(where: { $0.kind == .touchLocked || $0.kind == .touchUnlocked }) {
            effects.append(.keepTouchLock(control.gate.touchLocked))
        }
        guard changes.contains(where: \.kind.changesGate) else { return }
        panel?.pipeline.give(control.gate, at: time)
        gateChanged = time
        if !feeding { spreadGate() }
    }

    /// Every panel takes the gate in force (see `TouchscreenPipeline`), in force at once;
    /// a gesture of theirs that changes it again is given too.
    private func spreadGate() {
        feeding = true
        defer { feeding = false }
        while let time = gateChanged {
            gateChanged = nil
            for panel in panels {
                panel.pipeline.step(.gate(control.gate, at: time)) { take($0, of: panel) }
            }
            dueKnown = false
        }
    }

    private func take(_ request: ControlRequest, why: String, at time: Timestamp) throws(ControlRefusal) {
        switch request {
        case .setMode(let mode):
            changed(try control.setMode(mode, at: time, why: why).map { [$0] } ?? [], at: time)
        case .pause(let seconds):
            changed([try control.pause(checking: seconds, at: time, why: why)], at: time)
        case .resume:
            changed(control.resume(why: why).map { [$0] } ?? [], at: time)
        case .lockTouch(let locked):
            changed(control.setTouchLocked(locked, why: why).map { [$0] } ?? [], at: time)
        case .rotate(let degrees):
            guard let turn = QuarterTurn(degrees: degrees) else { throw .rotationOutOfRange(degrees) }
            rotateDisplay(turn, why: why, at: time)
        case .rotatePanel(let node, let degrees):
            guard let panel = byNode[node] else { throw .unknownDevice(node) }
            guard let turn = QuarterTurn(degrees: degrees) else { throw .rotationOutOfRange(degrees) }
            guard panel.pipeline.rotationSetting.followsDisplay else { throw .fixedRotation(device: panel.name, panel.pipeline.rotation) }
            rotate(panel, turn, why: why, at: time)
        }
    }

    // MARK: Rotation

    /// Every panel whose rotation is auto or external measures its next sequence so.
    private func rotateDisplay(_ turn: QuarterTurn, why: String, at time: Timestamp) {
        guard turn != displayRotation else { return }
        displayRotation = turn
        var turned: [String] = []
        for panel in panels {
            let before = panel.pipeline.rotation
            panel.pipeline.setDisplayRotation(turn)
            if panel.pipeline.rotation != before { turned.append(panel.node) }
        }
        changed([ControlChange(kind: .rotated(turn), reason: why)], at: time)
        effects.append(.announce([], rotatedPanels: turned))
    }

    /// One panel turned (one whose rotation is auto or external), until the display's
    /// rotation changes again.
    private func rotate(_ panel: SeatPanel, _ turn: QuarterTurn, why: String, at time: Timestamp) {
        guard panel.pipeline.rotationSetting.followsDisplay, panel.pipeline.rotation != turn else { return }
        panel.pipeline.setDisplayRotation(turn)
        changed([ControlChange(kind: .panelRotated(device: panel.name, turn), reason: why)], at: time)
        effects.append(.announce([], rotatedPanels: [panel.node]))
    }
}
