import TouchCore

/// The base of every recognizer: touch bookkeeping and the state machine. Subclasses
/// see only the touches that began in their region, decide in the touch hooks or at their
/// deadline, and ask for recognition; the `Arbiter` grants it or makes them wait or fail.
///
/// Its state is reached only from its own methods and the arbiter's, one call at a time:
/// the run-time exclusivity checks are left out of its stored properties
/// (`@exclusivity(unchecked)`), where they cost a storm's frames a fifth of their time.
public class GestureRecognizer {
    public let spec: GestureSpec
    @exclusivity(unchecked) public internal(set) var state = RecognizerState.possible
    /// When the recognizer must hear from the clock even if no frame comes (long press,
    /// the wait for a second tap). Nil when nothing is pending.
    @exclusivity(unchecked) public internal(set) var deadline: Timestamp?
    /// A recognition (or, for continuous gestures, a beginning) the arbiter has not granted yet.
    @exclusivity(unchecked) var request: (event: GestureEvent, quality: Double)?
    /// The last event sent, for ending a continuous gesture.
    @exclusivity(unchecked) var lastEvent: GestureEvent?
    /// The wait for another gesture's failure was explained once.
    @exclusivity(unchecked) var announcedWaiting = false
    /// The touch sequence of the first touch it followed since it was reset: a gesture
    /// that spans sequences (a double tap) belongs to the one it started in.
    @exclusivity(unchecked) var sequence: Int?
    /// The touch sequence of the last touch it took up: with `sequence`, the sequences
    /// its gesture spans.
    @exclusivity(unchecked) var lastSequence: Int?
    /// Taken out of the running (see `Arbiter.exclude`): it follows no new touch until
    /// its recognizers are made anew.
    @exclusivity(unchecked) private(set) var excluded = false

    let geometry: DeviceGeometry
    let output: RecognizerOutput
    @exclusivity(unchecked) var touches: [TrackedTouch] = []
    /// The most of its touches that were down at once in this sequence.
    @exclusivity(unchecked) var mostFingersDown = 0

    init(spec: GestureSpec, geometry: DeviceGeometry, output: RecognizerOutput) {
        self.spec = spec
        self.geometry = geometry
        self.output = output
        touches.reserveCapacity(TouchDecoder.maximumContacts)
    }

    var name: String { spec.name }
    var fingersDown: Int { touches.reduce(0) { $0 + ($1.isDown ? 1 : 0) } }
    /// Only a recognizer still deciding, and not waiting for the arbiter, takes new touches.
    var acceptsTouches: Bool { state == .possible && request == nil && !excluded }
    /// Possible, but with nothing to decide: no touches, no deadline, no request.
    var isIdle: Bool { state == .possible && touches.isEmpty && deadline == nil && request == nil }
    /// Still deciding about touches it follows (or waits on the clock for): it may yet be
    /// recognized, so touch delivery may have to wait for it.
    public var mayYetBeRecognized: Bool { state == .possible && !isIdle }

    // MARK: Hooks for subclasses

    func touchBegan(_ index: Int) {}
    func touchMoved(_ index: Int) {}
    func touchEnded(_ index: Int) {}
    /// After all of a frame's touches were delivered.
    func frameEnded() {}
    func deadlineReached() {}
    /// Forget the last sequence; subclasses clear their own state and call super.
    func reset() {
        state = .possible
        deadline = nil
        request = nil
        lastEvent = nil
        announcedWaiting = false
        sequence = nil
        lastSequence = nil
        touches.removeAll(keepingCapacity: true)
        mostFingersDown = 0
    }

    // MARK: Touch delivery

    /// Delivers the frame's touches this recognizer follows, or takes up new ones that
    /// began in its region; true when it followed any. A sequence passes them to its steps.
    func deliver(_ frame: TouchFrame) -> Bool {
        var delivered = false
        for touch in frame.touches {
            if let i = touches.firstIndex(where: { $0.id == touch.id }) {
                guard touches[i].isDown else { continue }
                delivered = true
                touches[i].pathMM += millimetres(touch.location - touches[i].location)
                touches[i].location = touch.location
                touches[i].time = touch.timestamp
                touches[i].isDown = touch.phase.isDown
                guard isDeciding else { continue }
                switch touch.phase {
                case .began, .moved, .stationary: touchMoved(i)
                case .ended: touchEnded(i)
                case .cancelled: touchesCancelled()
                }
            } else if touch.phase == .began, acceptsTouches, spec.region.contains(touch.location),
                      touches.count < TouchDecoder.maximumContacts {
                delivered = true
                takeUp(TrackedTouch(id: touch.id, start: touch.location, location: touch.location,
                                    startTime: touch.timestamp, time: touch.timestamp))
            }
        }
        if delivered, isDeciding { frameEnded() }
        return delivered
    }

    /// Takes over the touches still down that the step before it in a sequence followed
    /// (a hold, then a swipe of the same fingers), as if they came down now, where they are.
    final func adopt(_ handed: [TrackedTouch]) {
        var took = false
        for touch in handed where touch.isDown && touches.count < TouchDecoder.maximumContacts {
            took = true
            takeUp(TrackedTouch(id: touch.id, start: touch.location, location: touch.location, startTime: output.now, time: output.now))
        }
        if took, isDeciding { frameEnded() }
    }

    private func takeUp(_ touch: TrackedTouch) {
        if sequence == nil { sequence = output.sequence }
        lastSequence = output.sequence
        touches.append(touch)
        mostFingersDown = max(mostFingersDown, fingersDown)
        touchBegan(touches.count - 1)
    }

    /// The touch sequences its gesture spans so far: `now`'s alone when it follows none.
    func sequences(now: Int) -> ClosedRange<Int> {
        let first = sequence ?? now
        return first...max(first, lastSequence ?? first)
    }

    /// Still deciding, or under way: the touch hooks run.
    private var isDeciding: Bool { state == .possible || state.isActive }

    /// A touch was cancelled (device gone, events dropped): the gesture cannot complete.
    func touchesCancelled() {
        if state.isActive {
            finish(.cancelled, "a touch was cancelled")
        } else {
            apply(.fail, "a touch was cancelled")
        }
    }

    /// Out of the running from now on: still deciding, it fails; under way, it is
    /// cancelled; and it takes no new touch.
    final func exclude(_ reason: String) {
        guard !excluded else { return }
        excluded = true
        if state.isActive {
            finish(.cancelled, reason)
        } else if state == .possible, !isIdle {
            apply(.fail, reason)
        }
    }

    // MARK: Transitions

    /// What can happen to a recognizer. Every change of state goes through `apply`, one
    /// exhaustive switch over (state, event), as libinput's gesture states do.
    enum Event {
        /// Its own rules ruled it out, another gesture won, or a touch was cancelled first.
        case fail
        /// The arbiter granted its request: recognized (discrete) or began (continuous).
        case grant
        /// A continuous gesture's next step.
        case change
        /// A continuous gesture's fingers lifted.
        case end
        /// A continuous gesture lost a touch (device gone, events dropped).
        case cancel
    }

    /// Applies an event to the state machine; false when the pair is not a transition.
    /// Pairs that cannot happen are reported as bugs (`RecognizerOutput.bugs`), never
    /// dropped in silence.
    @discardableResult
    final func apply(_ event: Event, _ reason: @autoclosure () -> String) -> Bool {
        switch (state, event) {
        case (.possible, .fail):
            request = nil
            deadline = nil
            transition(to: .failed, reason())
        case (.possible, .grant):
            transition(to: spec.type.isContinuous ? .began : .ended, reason())
        case (.began, .change), (.changed, .change):
            state = .changed
        case (.began, .end), (.changed, .end):
            transition(to: .ended, reason())
        case (.began, .cancel), (.changed, .cancel):
            transition(to: .cancelled, reason())
        case (.possible, .change), (.possible, .end), (.possible, .cancel),
             (.began, .grant), (.changed, .grant),
             // A gesture under way no longer fails: it ends or is cancelled.
             (.began, .fail), (.changed, .fail),
             (.ended, _), (.cancelled, _), (.failed, _):
            output.bugs.append("\(name): \(event) in state \(state.rawValue) (\(reason()))")
            return false
        }
        return true
    }

    /// possible → failed, with the measured quantity and the limit it broke.
    func fail(_ reason: @autoclosure () -> String) {
        apply(.fail, reason())
    }

    /// Asks to be recognized (discrete) or to begin (continuous); `quality` in 0…1
    /// decides between gestures that decide in the same frame.
    func requestRecognition(quality: Double = 1, direction: Direction? = nil, scale: Double? = nil,
                            rotation: Double? = nil, translation: Point? = nil, velocity: Double? = nil) {
        guard state == .possible, request == nil else { return }
        let phase: GesturePhase = spec.type.isContinuous ? .began : .recognized
        request = (makeEvent(phase, direction: direction, scale: scale, rotation: rotation, translation: translation,
                             velocity: velocity), quality)
    }

    /// A continuous gesture's next step.
    func change(direction: Direction? = nil, scale: Double? = nil, rotation: Double? = nil, translation: Point? = nil,
                velocity: Double? = nil) {
        guard apply(.change, "changed") else { return }
        let event = makeEvent(.changed, direction: direction, scale: scale, rotation: rotation, translation: translation,
                              velocity: velocity)
        output.events.append(event)
        lastEvent = event
    }

    /// Ends or cancels a continuous gesture with the values it last reported: once a
    /// finger has lifted, what is left of the touches no longer describes it.
    func finish(_ phase: GesturePhase, _ reason: String) {
        guard var event = lastEvent, apply(phase == .ended ? .end : .cancel, reason) else { return }
        event.phase = phase
        event.time = output.now
        output.events.append(event)
    }

    /// Called by the arbiter: the request is granted.
    final func grant() {
        guard let (pending, quality) = request else {
            output.bugs.append("\(name): granted without a request")
            return
        }
        request = nil
        var event = pending
        event.time = output.now
        guard apply(.grant, "recognized (quality \(quality.formatted2))") else { return }
        output.events.append(event)
        lastEvent = event
        granted()
    }

    /// After the arbiter granted its request (a sequence grants its last step).
    func granted() {}

    private func transition(to newState: RecognizerState, _ reason: @autoclosure () -> String) {
        if output.explaining {
            output.transitions.append(Transition(time: output.now, gesture: name, from: state, to: newState, reason: reason()))
        }
        state = newState
    }

    func explain(_ note: @autoclosure () -> String) {
        if output.explaining {
            output.transitions.append(Transition(time: output.now, gesture: name, from: state, to: state, reason: note()))
        }
    }

    // MARK: Measures

    /// How far toward firing, for the overlay: 1 at its threshold; 0 where nothing can be
    /// said before the fingers lift (a tap, a stroke).
    var progress: Double { 0 }

    func makeEvent(_ phase: GesturePhase, direction: Direction? = nil, scale: Double? = nil,
                   rotation: Double? = nil, translation: Point? = nil, velocity: Double? = nil) -> GestureEvent {
        var event = GestureEvent(name: spec.name, type: spec.type, phase: phase, time: output.now, fingers: mostFingersDown,
                                 location: centroid(), direction: direction, scale: scale, rotation: rotation,
                                 translation: translation, velocity: velocity)
        if spec.tracksTouches {
            event.touches = touches.filter(\.isDown).map { TouchTrack(start: millimetreVector($0.start), now: millimetreVector($0.location)) }
        }
        return event
    }

    /// The mean location of the touches down, or of all followed touches when none is.
    func centroid() -> Point {
        var sum = Point.zero
        var count = 0
        let anyDown = touches.contains { $0.isDown }
        for t in touches where t.isDown || !anyDown {
            sum = sum + t.location
            count += 1
        }
        return count == 0 ? sum : sum * (1 / Double(count))
    }

    /// The length of a normalized displacement in millimetres.
    func millimetres(_ v: Point) -> Double { geometry.millimetres(v).length }

    func millimetreVector(_ v: Point) -> Point { geometry.millimetres(v) }
}

extension Double {
    /// Two decimals, for explanations.
    var formatted2: String { fixed(self, decimals: 2) }
    /// Whole numbers, for millimetres and milliseconds in explanations.
    var rounded0: String { fixed(self, decimals: 0) }
    /// A measure said beside the limit it broke: with a decimal where whole numbers would
    /// read alike ("moved 6.4 mm, allows 6 mm", not "moved 6 mm, allows 6 mm").
    func rounded(beside limit: Double) -> String { rounded0 == limit.rounded0 ? fixed(self, decimals: 1) : rounded0 }
}
