import Bindings
import ConfigDocument
import Gestures
import TouchCore

extension Configuration {
    static let daemonKeys = ["bus", "user", "command_timeout_ms", "log_level", "isolate", "max_delay_ms", "mode", "modes", "mode_timeout_s",
                             "rotation", "palm_after_pen_ms", "wake_latch", "wake_guard_ms", "wake_command", "overlay",
                             "keep_touch_lock", "idle_s", "idle_command", "idle_mode", "active_command", "active_mode",
                             "last_touch_interval_s"]
    static let regionKeys = ["name", "x", "y"]
    /// A panel's width or height, as `size_mm` may give it.
    static let panelSizesMM = 1.0...10_000.0
    static let deviceKeys = ["name", "id", "ignore", "rotation", "invert_x", "invert_y", "size_mm", "isolate", "withhold_palm", "output", "gestures"]

    /// Every key the parser takes, by section: what gestured.toml(5) must describe.
    public static var acceptedKeys: [String: [String]] {
        ["daemon": daemonKeys, "region": regionKeys, "device": deviceKeys,
         "gesture": common + ["on", "then", "within_ms"] + knownSettings]
    }

    /// Checks `root`, what the TOML parser made of `text` (see `ParseOutcome`); `file`
    /// names it in errors, `text` gives their lines. Reports every problem found.
    /// `keyCodes`: the names `keys` may use (libevdev's, from the OS edge), asked for only
    /// when a binding names a key. `scope`: a user's file also has the machine's settings
    /// refused, each at its line (see `ConfigScope`); `machineGestures`, the names of the
    /// machine's gestures, are not a user's gesture's.
    public static func check(_ root: ConfigTable, text: String, file: String,
                             keyCodes: @autoclosure @escaping () -> KeyCodes = KeyCodes(),
                             scope: ConfigScope = .machine, machineGestures: Set<String> = []) throws(ConfigErrors) -> Configuration {
        let diagnostics = Diagnostics(file: file, text: text)
        if scope == .user { refuseTheMachines(root, diagnostics) }
        let keyNames = KeyNames(keyCodes)
        var config = Configuration()
        let sections = ["daemon", "region", "device", "gesture"]
        for key in unknownKeys(root, allowed: sections) {
            let isSection = root[key]?.table != nil || root[key]?.array?.first?.table != nil
            let message = isSection
                ? "unknown section; expected [daemon], [[region]], [[device]] or [[gesture]]\(suggestion(for: key, among: sections))"
                : "unknown setting outside any section; settings go under [daemon], [[region]], [[device]] or [[gesture]]"
            diagnostics.report(message, array: key, index: 0, key: nil)
        }
        if let daemon = section(root, "daemon", diagnostics).first { config.daemon = parseDaemon(daemon) }

        var regionTables: [String: TableReader] = [:]
        for table in section(root, "region", diagnostics) {
            guard let region = parseRegion(table) else { continue }
            if regionTables[region.name] != nil {
                table.report("name", "\"\(region.name)\" is already the name of another region (\(regionTables[region.name]!.path))")
                continue
            }
            regionTables[region.name] = table
            config.regions.append(region)
        }

        let gestureTables = section(root, "gesture", diagnostics)
        // Names given to gestures, even invalid ones: a reference to them is not also an error.
        let declared = Set(gestureTables.compactMap { $0.table["name"]?.string })
        let regions = Dictionary(config.regions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var parsed: [(GestureSpec, TableReader)] = []
        var byName: [String: TableReader] = [:]
        for table in gestureTables {
            guard let (spec, binding) = parseGesture(table, regions: regions, keyNames: keyNames) else { continue }
            if let first = byName[spec.name] {
                table.report("name", "\"\(spec.name)\" is already the name of another gesture (\(first.path))")
                continue
            }
            if machineGestures.contains(spec.name) {
                table.report("name", "\"\(spec.name)\" is the name of one of the machine's gestures (/etc/gestured/gestured.toml); name yours otherwise")
                continue
            }
            byName[spec.name] = table
            config.gestures.append(spec)
            config.bindings.append(binding)
            parsed.append((spec, table))
        }
        if scope == .user, gestureTables.count > mostUserGestures {
            diagnostics.report("a user's configuration has at most \(mostUserGestures) gestures; remove some", array: "gesture",
                               index: mostUserGestures + 1, key: nil)
        }
        checkReferences(parsed, declared: declared)
        checkAngles(parsed)
        checkModesEntered(config, parsed.map(\.1))
        checkTouchLockEnds(config, parsed.map(\.1))
        checkWaitingCycles(parsed)
        config.devices = section(root, "device", diagnostics).compactMap {
            parseDevice($0, declared: declared, isolatedByDefault: config.daemon.isolate)
        }
        if !diagnostics.errors.isEmpty {
            throw ConfigErrors(errors: diagnostics.errors.enumerated()
                .sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }
                .map(\.element))
        }
        return config
    }

    /// `[name]` as one reader, `[[name]]` as one per element.
    private static func section(_ root: ConfigTable, _ name: String, _ diagnostics: Diagnostics) -> [TableReader] {
        guard let value = root[name] else { return [] }
        if name == "daemon" {
            guard let table = value.table else {
                diagnostics.report("expected a [daemon] table", array: name, index: 0, key: nil)
                return []
            }
            return [TableReader(table: table, array: name, index: 0, diagnostics: diagnostics)]
        }
        guard let array = value.array else {
            let found = value.table != nil ? "found [\(name)]; write [[\(name)]]" : "found a value"
            diagnostics.report("expected [[\(name)]] blocks (an array of tables), \(found)", array: name, index: 0, key: nil)
            return []
        }
        var readers: [TableReader] = []
        for (i, element) in array.enumerated() {
            guard let table = element.table else {
                diagnostics.report("expected a table", array: name, index: i + 1, key: nil)
                continue
            }
            readers.append(TableReader(table: table, array: name, index: i + 1, diagnostics: diagnostics))
        }
        return readers
    }

    private static func parseDaemon(_ t: TableReader) -> DaemonSettings {
        var d = DaemonSettings()
        if let bus = t.choice("bus", DaemonSettings.Bus.allCases.map(\.rawValue)) { d.bus = DaemonSettings.Bus(rawValue: bus)! }
        d.user = t.string("user")
        if let timeout = t.int("command_timeout_ms", in: 1...86_400_000, what: " milliseconds") { d.commandTimeoutMS = timeout }
        if let level = t.choice("log_level", DaemonSettings.LogLevel.allCases.map(\.rawValue)) {
            d.logLevel = DaemonSettings.LogLevel(rawValue: level)!
        }
        d.isolate = t.bool("isolate") ?? false
        if let delay = t.number("max_delay_ms", allowingZero: true, atMost: Limit(60_000, "a minute")) { d.maxDelayMS = delay }
        parseDaemonModes(t, into: &d)
        if let rotation = parseRotation(t) { d.rotation = rotation }
        if let palm = t.number("palm_after_pen_ms", allowingZero: true, atMost: Limit(60_000, "a minute")) { d.palmAfterPenMS = palm }
        d.wakeLatch = t.bool("wake_latch") ?? true
        d.overlay = t.bool("overlay") ?? false
        d.keepTouchLock = t.bool("keep_touch_lock") ?? false
        parseIdle(t, into: &d)
        if let guardMS = t.number("wake_guard_ms", allowingZero: true, atMost: Limit(10_000, "ten seconds")) { d.wakeGuardMS = guardMS }
        d.wakeCommand = command(t, "wake_command", "a command that lights the screen", like: "wlopm --on '*'")
        t.reportUnknownKeys(allowed: Self.daemonKeys, owner: "[daemon]")
        return d
    }

    /// A `[daemon]` command (`wake_command`, `idle_command`, `active_command`): started as
    /// a gesture's is; a blank one is refused, saying `what` is expected.
    static func command(_ t: TableReader, _ key: String, _ what: String, like example: String) -> CommandForm? {
        guard let text = t.string(key, hint: ", like \"\(example)\"") else { return nil }
        guard !text.allSatisfy(\.isWhitespace) else {
            t.report(key, "blank; expected \(what), like \"\(example)\"")
            return nil
        }
        return CommandForm(text)
    }

    private static func parseRegion(_ t: TableReader) -> Region? {
        let name = t.name("name", required: true)
        let x = t.unitRange("x", what: "fractions of the screen's width, 0 at the left")
        let y = t.unitRange("y", what: "fractions of the screen's height, 0 at the top")
        t.reportUnknownKeys(allowed: Self.regionKeys, owner: "a region")
        guard let name else { return nil }
        return Region(name: name, x: x ?? 0...1, y: y ?? 0...1)
    }

    private static func parseDevice(_ t: TableReader, declared: Set<String>, isolatedByDefault: Bool) -> DeviceRule? {
        var rule = DeviceRule()
        rule.namePattern = t.string("name")
        if let id = t.string("id") {
            let parts = id.split(separator: ":", omittingEmptySubsequences: false)
            let hex = parts.map { part in part.count <= 4 && part.allSatisfy(\.isHexDigit) ? UInt16(part, radix: 16) : nil }
            if hex.count == 2, let v = hex[0], let p = hex[1] {
                rule.vendor = v
                rule.product = p
            } else {
                t.report("id", "expected \"VENDOR:PRODUCT\" in hex, like \"0eef:7224\" (as lsusb shows), found \"\(id)\"")
            }
        }
        if !t.has("name"), !t.has("id") { t.report(nil, "needs a name (a glob like \"ELAN*\") or an id (\"vendor:product\") to match devices") }
        rule.ignore = t.bool("ignore") ?? false
        rule.rotation = parseRotation(t)
        rule.invertX = t.bool("invert_x") ?? false
        rule.invertY = t.bool("invert_y") ?? false
        rule.isolate = t.bool("isolate")
        rule.withholdPalm = t.bool("withhold_palm") ?? false
        if rule.withholdPalm, !(rule.isolate ?? isolatedByDefault) {
            t.report("withhold_palm", "applications get this panel's touches from gestured only when it is isolated: add isolate = true here (or in [daemon])")
        }
        if let output = t.name("output") {
            if output.utf8.count > Screens.longestName || output.contains(where: \.isWhitespace) {
                t.report("output", "expected an output's name as xrandr, wlr-randr or /sys/class/drm show it (without \"card0-\"), like \"eDP-1\" or \"HDMI-A-1\"")
            } else {
                rule.output = output
            }
        }
        if let size = t.pair("size_mm", example: "[154.0, 86.0]") {
            // From a watch's screen to a wall's: beyond that a size is a typo, and
            // speeds and distances measured with it stop meaning anything.
            if Self.panelSizesMM.contains(size.0), Self.panelSizesMM.contains(size.1) {
                rule.sizeMM = SizeMM(width: size.0, height: size.1)
            } else {
                t.report("size_mm", "expected [width, height] in millimetres, each from 1 to 10000 (10 m), found [\(size.0), \(size.1)]")
            }
        }
        if let names = t.strings("gestures") {
            for name in names where !declared.contains(name) {
                t.report("gestures", "no gesture is named \"\(name)\"\(suggestion(for: name, among: declared))")
            }
            rule.gestures = names
        }
        t.reportUnknownKeys(allowed: Self.deviceKeys,
                            owner: "a device")
        return rule
    }

    /// `rotation`: 0, 90, 180 or 270 degrees clockwise, "auto" (the accelerometer) or
    /// "external" (set on the bus).
    private static func parseRotation(_ t: TableReader) -> RotationSetting? {
        guard let value = t.table["rotation"] else { return nil }
        let expected = "0, 90, 180 or 270 (degrees clockwise), \"auto\" (the accelerometer, through iio-sensor-proxy) or \"external\" (set on the bus)"
        if let word = value.string {
            switch word {
            case "auto": return .automatic
            case "external": return .external
            default:
                t.report("rotation", "expected \(expected), found \"\(word)\"\(suggestion(for: word, among: ["auto", "external"]))")
                return nil
            }
        }
        guard let degrees = t.int("rotation", in: Int.min...Int.max) else { return nil }
        guard let turn = QuarterTurn(degrees: degrees) else {
            t.report("rotation", "expected \(expected), found \(degrees)")
            return nil
        }
        return .fixed(turn)
    }

    /// Two gestures that take the same touches (type, fingers, edge, region, tool, modes,
    /// applications and the steps before them) may not share an angle: a movement in both ranges would be
    /// both's. Said at the later one's `angle`. Sorted, not pair by pair: each range split
    /// where it passes 0°, its pieces taken by where they start, each compared with the
    /// furthest-reaching piece of the others before it.
    private static func checkAngles(_ gestures: [(GestureSpec, TableReader)]) {
        struct Piece { var start, end: Double; var gesture: Int }
        var groups: [String: [Piece]] = [:]
        for (index, (spec, _)) in gestures.enumerated() {
            guard let angle = spec.angle else { continue }
            let key = "\(spec.type) \(spec.fingers) \(spec.edge.map(\.rawValue) ?? "-") \(spec.region.name) \(spec.tool.map(\.rawValue) ?? "-") "
                + "\(spec.modes.sorted()) \(spec.apps) \(spec.earlierSteps.map(\.trigger))"
            let pieces = angle.to > angle.from ? [Piece(start: angle.from, end: angle.to, gesture: index)]
                : [Piece(start: angle.from, end: 360, gesture: index), Piece(start: 0, end: angle.to, gesture: index)]
            groups[key, default: []] += pieces.filter { $0.end > $0.start }
        }
        var said = Set<Int>()
        for pieces in groups.values {
            var reach: Piece?
            for piece in pieces.sorted(by: { ($0.start, $0.gesture) < ($1.start, $1.gesture) }) {
                if let other = reach, other.gesture != piece.gesture, piece.start < other.end {
                    let (earlier, later) = (min(other.gesture, piece.gesture), max(other.gesture, piece.gesture))
                    if said.insert(later).inserted, let angle = gestures[earlier].0.angle {
                        gestures[later].1.report("angle", "overlaps \"\(gestures[earlier].0.name)\"'s angle (\(angle)), which takes the same touches: "
                            + "a movement in both would be both's; let them meet (one's to the other's from)")
                    }
                }
                if piece.end > reach?.end ?? -1 { reach = piece }
            }
        }
    }

    /// Every gesture's requires_failure_of and simultaneous_with name existing gestures.
    private static func checkReferences(_ gestures: [(GestureSpec, TableReader)], declared: Set<String>) {
        for (spec, table) in gestures {
            for (key, list) in [("requires_failure_of", spec.requiresFailureOf), ("simultaneous_with", spec.simultaneousWith)] {
                for name in list where !declared.contains(name) {
                    table.report(key, "no gesture is named \"\(name)\"\(suggestion(for: name, among: declared))")
                }
            }
            if spec.requiresFailureOf.contains(spec.name) {
                table.report("requires_failure_of", "\"\(spec.name)\" requires its own failure, so it could never be recognized")
            }
            if spec.simultaneousWith.contains(spec.name) {
                table.report("simultaneous_with", "a gesture cannot be simultaneous with itself (\"\(spec.name)\")")
            }
        }
    }

    /// Gestures waiting for each other's failure (a → b → a) are never recognized when
    /// all of them match: each knot is reported once, at its first gesture.
    private static func checkWaitingCycles(_ gestures: [(GestureSpec, TableReader)]) {
        for (cycle, automatic) in WaitGraph(gestures.map(\.0)).cycles() {
            var names = (cycle + [cycle[0]]).map { gestures[$0].0.name }
            if names.count > 12 { names.replaceSubrange(10..<names.count - 2, with: ["… \(names.count - 12) more"]) }
            let path = names.joined(separator: " → ")
            let note = automatic ? " (a tap waits by itself for the taps with more taps on the same fingers and region)" : ""
            let who = cycle.count == 2 ? "both" : "all of them"
            gestures[cycle[0]].1.report("requires_failure_of",
                                        "these gestures wait for each other to fail: \(path)\(note); when \(who) match, none is recognized")
        }
    }
}

/// The key names, read once a binding names a key: building libevdev's table is a
/// twentieth of the daemon's start, and most configurations press no key.
final class KeyNames {
    private let read: () -> KeyCodes
    private(set) lazy var codes: KeyCodes = read()

    init(_ read: @escaping () -> KeyCodes) { self.read = read }
}
