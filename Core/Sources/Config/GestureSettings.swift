import Bindings
import Gestures
import TouchCore

extension Configuration {
    /// The settings each type takes, beyond name, type, region, the relations and actions.
    static let settings: [GestureType: [String]] = [
        .tap: ["fingers", "taps", "max_movement_mm", "max_duration_ms", "max_interval_ms"],
        .longPress: ["fingers", "max_movement_mm", "min_duration_ms"],
        .swipe: ["fingers", "direction", "angle", "min_distance_mm", "min_speed_mm_s"],
        .pan: ["fingers", "angle", "min_distance_mm", "resume_ms", "scroll", "scroll_mm", "kinetic", "step", "increase", "decrease"] + holdKeys,
        .pinch: ["fingers", "min_scale_change", "resume_ms", "step", "increase", "decrease"] + holdKeys,
        .rotate: ["fingers", "min_rotation", "resume_ms", "step", "increase", "decrease"] + holdKeys,
        .edgeSwipe: ["fingers", "edge", "edge_range", "edge_zone_mm", "angle", "min_distance_mm", "tag"],
        .checkmark: ["min_size_mm"],
        .chevron: ["direction", "min_size_mm"],
        .stroke: ["templates", "min_similarity", "min_size_mm"],
    ]
    /// What a continuous gesture holds from its begin to its end (`Hold`), and whether it
    /// goes to the virtual touchpad.
    static let holdKeys = ["hold", "hold_button", "pointer", "touchpad"]
    /// The measured settings, each with the most that makes physical sense: no panel is
    /// 10 m across, no gesture lasts an hour, no finger moves at 100 m/s.
    static var measures: [(String, WritableKeyPath<GestureSpec, Double>, Limit)] { [
        ("max_movement_mm", \.maxMovementMM, Limit(10_000, "10 m")), ("max_duration_ms", \.maxDurationMS, Limit(3_600_000, "an hour")),
        ("max_interval_ms", \.maxIntervalMS, Limit(3_600_000, "an hour")), ("min_duration_ms", \.minDurationMS, Limit(3_600_000, "an hour")),
        ("min_distance_mm", \.minDistanceMM, Limit(10_000, "10 m")), ("min_speed_mm_s", \.minSpeedMMPerS, Limit(100_000, "100 m/s")),
        ("min_scale_change", \.minScaleChange, Limit(100, "a hundredfold")), ("min_rotation", \.minRotation, Limit(100, "16 turns")),
        ("edge_zone_mm", \.edgeZoneMM, Limit(10_000, "10 m")), ("min_size_mm", \.minSizeMM, Limit(10_000, "10 m")),
        ("resume_ms", \.resumeMS, Limit(60_000, "a minute")),
    ] }

    /// What a gesture, or one of its steps (`increase`, `decrease`), can do.
    static let actionKeys = ["command", "exec", "signal", "keys", "click", "double"]
    static let common = ["name", "type", "region", "requires_failure_of", "simultaneous_with",
                         "cancels_touches", "delays_touches_began", "delays_touches_ended", "max_running", "tool"] + actionKeys + modeKeys + appKeys

    /// What a gesture does rather than what it is: its binding's settings, read for the
    /// type it ends as (a sequence's last step), never in a step of `then`.
    static let bindingKeys = ["scroll", "scroll_mm", "kinetic", "step", "increase", "decrease", "tag"] + holdKeys

    static func parseGesture(_ t: TableReader, regions: [String: Region], keyNames: KeyNames) -> (GestureSpec, Binding)? {
        let name = t.name("name", required: true)
        let typeName = t.choice("type", GestureType.allCases.map(\.rawValue), required: true)
        guard let name, let typeName, let firstType = GestureType(rawValue: typeName) else { return nil }
        var first = GestureSpec(name: name, type: firstType)
        parseShape(t, into: &first)
        var steps = parseSequence(t, after: first)
        var spec = steps.removeLast()
        spec.name = name
        spec.earlierSteps = steps
        let type = spec.type
        let owner = steps.isEmpty ? article(type) : "this sequence's first step, \(article(firstType)),"

        if let regionName = t.string("region") {
            if let region = regions[regionName] { spec.region = region } else {
                t.report("region", "no [[region]] is named \"\(regionName)\"\(suggestion(for: regionName, among: regions.keys.sorted()))")
            }
        }
        spec.requiresFailureOf = t.strings("requires_failure_of") ?? []
        spec.simultaneousWith = t.strings("simultaneous_with") ?? []
        if let tool = t.choice("tool", ["any"] + ContactTool.allCases.map(\.rawValue)) { spec.tool = ContactTool(rawValue: tool) }
        if let cancels = t.bool("cancels_touches") { spec.cancelsTouches = cancels }
        if let delays = t.bool("delays_touches_began") { spec.delaysTouchesBegan = delays }
        if let delays = t.bool("delays_touches_ended") { spec.delaysTouchesEnded = delays }
        // Three fingers and more are a gesture to whoever reads them, not an application's
        // input: a desktop acts on their motion before any cancel comes (KWin's and GNOME's
        // three-finger swipes do). Once they are all down, the twin gets nothing more until
        // this has failed; fewer fingers pass at once. A sequence holds from its fewest
        // fingers of three or more.
        if let many = (steps + [spec]).map(\.fingers).filter({ $0 >= 3 }).min(), !t.has("delays_touches_began") {
            spec.delaysTouchesBegan = true
            spec.delaysFromFingers = many
        }
        if type == .edgeSwipe, let tag = t.name("tag") {
            if tag.utf8.count > 64 { t.report("tag", "at most 64 bytes: a word a drawer listens for, like \"drawer\"") } else { spec.progressTag = tag }
        }

        var binding = Binding(gesture: name)
        binding.actions = parseActions(t, keyNames: keyNames)
        parseModes(t, into: &spec, &binding.actions)
        parseApps(t, into: &spec)
        if let limit = t.int("max_running", in: 1...64) { binding.maxRunning = limit }
        if let phases = t.strings("on") {
            let allowed = ["began", "changed", "ended", "cancelled"]
            if phases.isEmpty { t.report("on", "empty; list the phases that run the command: \(allowed.joined(separator: ", "))") }
            for phase in phases where !allowed.contains(phase) {
                t.report("on", "expected phases among \(allowed.joined(separator: ", ")), found \"\(phase)\"\(suggestion(for: phase, among: allowed))")
            }
            binding.commandPhases = Set(phases.compactMap(GesturePhase.init))
        }

        if type == .pan, t.bool("scroll") == true {
            var mm = t.number("scroll_mm", allowingZero: false, atMost: Limit(1_000, "1 m"))
            // Below a tenth of a millimetre a notch is a finger's tremble: 5e-324 made 10^12 wheel units an event.
            if let notch = mm, notch < 0.1 {
                t.report("scroll_mm", "expected at least 0.1 (a tenth of a millimetre a notch), found \(notch)")
                mm = nil
            }
            binding.scroll = Scroll(mmPerDetent: mm ?? Scroll.defaultMMPerDetent, kinetic: t.bool("kinetic") ?? false)
        } else if type == .pan {
            for key in ["scroll_mm", "kinetic"] where t.has(key) { t.report(key, "goes with scroll = true") }
        }
        if type.isContinuous {
            binding.steps = parseSteps(t, type: type, keyNames: keyNames)
            binding.hold = parseHold(t, keyNames: keyNames)
            if t.bool("touchpad") == true {
                if (2...VirtualTouchpad.slots).contains(spec.fingers) {
                    binding.touchpad = true
                    spec.tracksTouches = true
                    // The twin gets none of its touches, not even their beginning.
                    if !t.has("delays_touches_began") { spec.delaysTouchesBegan = true }
                } else {
                    t.report("touchpad", "a touchpad gesture has 2 to \(VirtualTouchpad.slots) fingers; this \(type.rawValue) has \(spec.fingers) (set fingers)")
                }
            }
        }
        if !type.isContinuous, t.has("on") {
            t.report("on", "only continuous gestures (pan, pinch, rotate) have phases; \(article(type)) acts when recognized")
        }
        let typeSettings = shapeKeys(firstType) + (settings[type] ?? []).filter(bindingKeys.contains)
        t.reportUnknownKeys(allowed: common + typeSettings + ["on", "then"], known: knownSettings, owner: owner, takes: typeSettings)
        return (spec, binding)
    }

    /// Every type's settings, for saying that one belongs to another type: made once, not
    /// for each gesture and step of a file of thousands.
    static let knownSettings = Set(settings.values.joined()).sorted()

    /// The settings that shape what a type recognizes: all a step of `then` takes.
    static func shapeKeys(_ type: GestureType) -> [String] { (settings[type] ?? []).filter { !bindingKeys.contains($0) } }

    static func article(_ type: GestureType) -> String { "a\(type == .edgeSwipe ? "n" : "") \(type.rawValue) gesture" }

    /// What one gesture, or one step of a sequence, recognizes: its fingers, taps, way,
    /// edge, examples and measures.
    static func parseShape(_ t: TableReader, into spec: inout GestureSpec) {
        let type = spec.type, owner = article(type)
        let minimumFingers = type == .pinch || type == .rotate ? 2 : 1
        if let fingers = t.int("fingers", in: minimumFingers...10) { spec.fingers = fingers }
        if let taps = t.int("taps", in: 1...5) { spec.taps = taps }
        if type == .chevron {
            let cardinal = [Direction.right, .left, .up, .down].map(\.rawValue)
            spec.direction = t.choice("direction", cardinal, required: true, requiredBy: owner, what: " for a chevron").flatMap(Direction.init)
        } else if let d = t.choice("direction", Direction.allCases.map(\.rawValue)) {
            spec.direction = Direction(rawValue: d)
        }
        if let (from, to) = t.pair("angle", example: "[15, 45]") {
            let degrees = -360.0...360.0
            if spec.direction != nil {
                t.report("angle", "a gesture goes in a direction or within an angle, not both: leave one out")
            } else if !degrees.contains(from) || !degrees.contains(to) {
                t.report("angle", "expected degrees from -360 to 360 (0 right, 90 up, 180 left, 270 down), found [\(from), \(to)]")
            } else if let range = AngleRange(from: from, to: to) {
                spec.angle = range
            } else {
                t.report("angle", "[\(from), \(to)] is no range (from and to are the same way); to take every way, leave angle out")
            }
        }
        if type == .edgeSwipe {
            spec.edge = t.choice("edge", Edge.allCases.map(\.rawValue), required: true, requiredBy: owner).flatMap(Edge.init)
        }
        if type == .stroke { parseTemplates(t, into: &spec, owner: owner) }
        if let range = t.unitRange("edge_range", what: "fractions of the edge's length, from its top or left end") { spec.edgeRange = range }
        for (key, field, limit) in Self.measures {
            // A continuous gesture's threshold may be 0: it then begins at touch-down.
            let mayBeZero = type.isContinuous && ["min_distance_mm", "min_scale_change", "min_rotation", "resume_ms"].contains(key)
            if let value = t.number(key, allowingZero: mayBeZero, atMost: limit) { spec[keyPath: field] = value }
        }
    }

    /// `then = { type = "long-press" }`: the steps after `first`, each an inline table
    /// of a type, its shape and `within_ms`, which may hold the next `then`. The steps in
    /// order, `first` among them; a step that cannot be read ends the sequence there.
    static func parseSequence(_ t: TableReader, after first: GestureSpec) -> [GestureSpec] {
        var steps = [first]
        var holder = t
        while let step = holder.table("then", example: "{ type = \"long-press\" }") {
            let before = steps[steps.count - 1]
            guard steps.count < GestureSpec.mostSteps else {
                holder.report("then", "a sequence has at most \(GestureSpec.mostSteps) steps")
                break
            }
            guard !before.type.isContinuous, before.type != .stroke else {
                let why = before.type == .stroke ? "a learned stroke may end a sequence, not lead in it"
                    : "a \(before.type.rawValue) lasts until its fingers lift; then follows a tap, long-press, swipe, edge-swipe, checkmark or chevron"
                holder.report("then", why)
                break
            }
            guard let typeName = step.choice("type", GestureType.allCases.map(\.rawValue), required: true, requiredBy: "a step of then"),
                  let type = GestureType(rawValue: typeName) else { break }
            var spec = GestureSpec(name: first.name, type: type)
            parseShape(step, into: &spec)
            if let within = step.number("within_ms", allowingZero: false, atMost: Limit(60_000, "a minute")) { spec.withinMS = within }
            let takes = shapeKeys(type)
            step.reportUnknownKeys(allowed: ["type", "within_ms", "then"] + takes, known: knownSettings,
                                   owner: "a step of then (\(type.rawValue))", takes: takes)
            steps.append(spec)
            holder = step
        }
        return steps
    }
}

extension Configuration {
    /// A learned stroke's examples, as `gestured learn` writes them, and its threshold.
    static func parseTemplates(_ t: TableReader, into spec: inout GestureSpec, owner: String) {
        guard let texts = t.strings("templates") else {
            if !t.has("templates") { t.report("templates", "missing; \(owner) needs the examples `gestured learn` writes") }
            return
        }
        if texts.isEmpty { t.report("templates", "empty; \(owner) needs at least one example (run `gestured learn`)") }
        if texts.count > GestureSpec.mostTemplates {
            t.report("templates", "\(texts.count) examples; at most \(GestureSpec.mostTemplates) (`gestured learn --keep N` keeps the most typical)")
            return
        }
        for (n, text) in texts.enumerated() {
            guard let template = StrokeTemplate(shape: spec.name, text: Substring(text)) else {
                t.report("templates", "example \(n + 1) is not a template: expected 128 hex digits as `gestured learn` writes them")
                continue
            }
            spec.templates.append(template)
        }
        spec.templateSpread = StrokeMatcher.spread(of: spec.templates)
        if let similarity = t.number("min_similarity", allowingZero: true, atMost: Limit(1, "1, a perfect match")) {
            spec.minSimilarity = similarity
        }
    }
}

extension Configuration {
    /// command or exec, signal, keys, click (with double): what a gesture or a step does.
    static func parseActions(_ t: TableReader, keyNames: KeyNames) -> BoundActions {
        var actions = BoundActions(command: t.string("command"), signal: t.bool("signal") ?? false)
        if let command = actions.command, command.allSatisfy(\.isWhitespace) {
            t.report("command", "blank; expected a command to run, like \"notify-send Confirmed\"")
        }
        if let words = t.strings("exec") {
            if words.isEmpty || words.contains(where: \.isEmpty) {
                t.report("exec", "expected the program and its arguments, none empty, like [\"logger\", \"zoom\"]")
            } else if actions.command != nil {
                t.report("exec", "a gesture has a command or exec, not both")
            } else {
                actions.exec = words
            }
        }
        actions.keys = parseKeys(t, keyNames: keyNames)
        if let button = t.choice("click", MouseButton.allCases.map(\.rawValue)).flatMap(MouseButton.init) {
            actions.click = Click(button, count: t.bool("double") == true ? 2 : 1)
        } else if t.has("double"), !t.has("click") {
            t.report("double", "goes with click, like click = \"left\"")
        }
        return actions
    }

    /// `keys = "ctrl+alt+Right"` or `keys = ["ctrl+c", "ctrl+v"]`: names as the kernel's
    /// KEY_ and BTN_ names (`keyNames`, libevdev's).
    static func parseKeys(_ t: TableReader, keyNames: KeyNames) -> KeySequence? {
        guard let value = t.table["keys"] else { return nil }
        let written = value.string.map { [$0] } ?? t.strings("keys")
        guard let written else { return nil }
        guard !written.isEmpty else {
            t.report("keys", "empty; expected keys to press, like \"ctrl+alt+Right\" or [\"ctrl+c\", \"ctrl+v\"]")
            return nil
        }
        // All of a sequence is written in one wake-up of the loop: keep it a keyboard's worth.
        guard written.count <= KeySequence.mostChords else {
            t.report("keys", "\(written.count) chords; at most \(KeySequence.mostChords) a gesture (a command can type more)")
            return nil
        }
        var chords: [[UInt16]] = []
        for chord in written {
            switch keyNames.codes.chord(chord) {
            case .success(let codes) where codes.count > KeySequence.mostKeysInAChord:
                t.report("keys", "\"\(chord)\" holds \(codes.count) keys; at most \(KeySequence.mostKeysInAChord) at once")
                return nil
            case .success(let codes): chords.append(codes)
            case .failure(let unknown):
                let what = unknown.name.isEmpty ? "an empty key name in \"\(chord)\"" : "no key is named \"\(unknown.name)\""
                t.report("keys", "\(what)\(suggestion(for: unknown.name, among: keyNames.codes.writtenNames)); names are the kernel's KEY_ names without KEY_ (Right, VolumeUp, F5, Enter), or ctrl, alt, shift, super, altgr")
                return nil
            }
        }
        return KeySequence(written: written, chords: chords)
    }

    /// `hold = "super"` (one chord), `hold_button = "left"`, `pointer = true` (the default
    /// with a button: a drag follows the fingers).
    static func parseHold(_ t: TableReader, keyNames: KeyNames) -> Hold? {
        guard t.has("hold") || t.has("hold_button") || t.has("pointer") else { return nil }
        var hold = Hold(pointer: false)
        if let chord = t.string("hold", hint: ": one chord held while the gesture lasts, like \"super\" or \"alt\"") {
            switch keyNames.codes.chord(chord) {
            case .success(let codes) where codes.count > KeySequence.mostKeysInAChord:
                t.report("hold", "\"\(chord)\" holds \(codes.count) keys; at most \(KeySequence.mostKeysInAChord) at once")
            case .success(let codes):
                hold.written = chord
                hold.keys = codes
            case .failure(let unknown):
                let what = unknown.name.isEmpty ? "an empty key name in \"\(chord)\"" : "no key is named \"\(unknown.name)\""
                t.report("hold", "\(what)\(suggestion(for: unknown.name, among: keyNames.codes.writtenNames)); one chord of the kernel's KEY_ names without KEY_, like \"super\" or \"ctrl+alt\"")
            }
        }
        hold.button = t.choice("hold_button", MouseButton.allCases.map(\.rawValue)).flatMap(MouseButton.init)
        hold.pointer = t.bool("pointer") ?? (hold.button != nil)
        guard !hold.keys.isEmpty || hold.button != nil || hold.pointer else {
            if t.bool("pointer") == false, !t.has("hold"), !t.has("hold_button") {
                t.report("pointer", "false holds nothing; pointer goes with hold or hold_button, or alone as true (the pointer follows the fingers)")
            }
            return nil
        }
        return hold
    }

    /// `step`, `increase` and `decrease`: all three or none.
    static func parseSteps(_ t: TableReader, type: GestureType, keyNames: KeyNames) -> Steps? {
        guard t.has("step") || t.has("increase") || t.has("decrease") else { return nil }
        // The finest step a hand makes on purpose: below it the fingers' tremble crosses
        // steps (1e-300 mm made 14,800 key actions of one drag).
        let unit: String, finest: (size: Double, written: String, words: String)
        var size: Double?
        switch type {
        case .pinch:
            unit = "a scale factor over 1, like 1.1 for every 10 %"
            finest = (1.01, "1.01", "a 1 % change of the fingers' spread")
            size = t.number("step", allowingZero: false, atMost: Limit(100, "a hundredfold"))
        case .rotate:
            unit = "degrees, like 15"
            finest = (1, "1", "a degree")
            size = t.number("step", allowingZero: false, atMost: Limit(3_600, "ten turns"))
        default:
            unit = "millimetres, like 10"
            finest = (1, "1", "a millimetre")
            size = t.number("step", allowingZero: false, atMost: Limit(10_000, "10 m"))
        }
        if let given = size, given < finest.size {
            t.report("step", "expected at least \(finest.written) (\(finest.words)), found \(given); \(unit)")
            size = nil
        }
        if !t.has("step") { t.report("step", "missing; increase and decrease act every step, in \(unit)") }
        func actions(_ key: String) -> BoundActions? {
            guard let inner = t.table(key) else {
                if !t.has(key) { t.report(key, "missing; step needs both increase and decrease, like \(key) = { keys = \"Volume\(key == "increase" ? "Up" : "Down")\" }") }
                return nil
            }
            let bound = parseActions(inner, keyNames: keyNames)
            inner.reportUnknownKeys(allowed: actionKeys, owner: key)
            if bound.isEmpty { t.report(key, "empty; expected what a step does: command, exec, keys, click or signal") }
            return bound
        }
        let increase = actions("increase"), decrease = actions("decrease")
        guard let increase, let decrease, let size else { return nil }
        return Steps(size: size, increase: increase, decrease: decrease)
    }
}
