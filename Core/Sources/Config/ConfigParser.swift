import Bindings
import Gestures
import TOMLKit
import TouchCore

extension Configuration {
    /// Parses and validates `text`; `file` names it in errors. Reports every problem found.
    public static func parse(_ text: String, file: String) throws(ConfigErrors) -> Configuration {
        let diagnostics = Diagnostics(file: file, text: text)
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigErrors(errors: [ConfigError(file: file, line: error.source.begin.line, column: error.source.begin.column,
                                                    keyPath: nil, message: error.description)])
        } catch {
            throw ConfigErrors(errors: [ConfigError(file: file, line: nil, column: nil, keyPath: nil, message: "\(error)")])
        }
        var config = Configuration()
        let sections = ["daemon", "region", "device", "gesture"]
        for key in root.keys where !sections.contains(key) {
            diagnostics.report(ConfigError(file: file, line: diagnostics.source.line(array: key, index: 1, key: nil), column: nil,
                                           keyPath: key, message: "unknown section; expected [daemon], [[region]], [[device]] or [[gesture]]\(suggestion(for: key, among: sections))"))
        }
        if let daemon = section(root, "daemon", diagnostics).first { config.daemon = parseDaemon(daemon) }
        config.regions = section(root, "region", diagnostics).compactMap(parseRegion)
        let gestureTables = section(root, "gesture", diagnostics)
        var regionNames = Set<String>()
        for (region, table) in zip(config.regions, section(root, "region", diagnostics)) where !regionNames.insert(region.name).inserted {
            table.report("name", "\"\(region.name)\" is already the name of another region")
        }
        var parsed: [(GestureSpec, TableReader)] = []
        for table in gestureTables {
            guard let (spec, binding) = parseGesture(table, regions: config.regions) else { continue }
            if config.gestures.contains(where: { $0.name == spec.name }) {
                table.report("name", "\"\(spec.name)\" is already the name of another gesture")
                continue
            }
            config.gestures.append(spec)
            config.bindings.append(binding)
            parsed.append((spec, table))
        }
        checkReferences(parsed)
        config.devices = section(root, "device", diagnostics).compactMap { parseDevice($0, gestures: config.gestures) }
        if !diagnostics.errors.isEmpty {
            throw ConfigErrors(errors: diagnostics.errors.sorted { ($0.line ?? 0) < ($1.line ?? 0) })
        }
        return config
    }

    /// `[name]` as one reader, `[[name]]` as one per element.
    private static func section(_ root: TOMLTable, _ name: String, _ diagnostics: Diagnostics) -> [TableReader] {
        guard let value = root[name] else { return [] }
        if name == "daemon" {
            guard let table = value.table else {
                diagnostics.report("expected a [daemon] table", array: name, index: 0, key: nil)
                return []
            }
            return [TableReader(table: table, array: name, index: 0, diagnostics: diagnostics)]
        }
        guard let array = value.array else {
            diagnostics.report("expected [[\(name)]] blocks (an array of tables)", array: name, index: 0, key: nil)
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
        if let timeout = t.int("command_timeout_ms", in: 1...86_400_000) { d.commandTimeoutMS = timeout }
        if let level = t.choice("log_level", DaemonSettings.LogLevel.allCases.map(\.rawValue)) {
            d.logLevel = DaemonSettings.LogLevel(rawValue: level)!
        }
        t.reportUnknownKeys(allowed: ["bus", "user", "command_timeout_ms", "log_level"], owner: "[daemon]")
        return d
    }

    private static func parseRegion(_ t: TableReader) -> Region? {
        let name = t.string("name", required: true)
        let x = t.unitRange("x"), y = t.unitRange("y")
        t.reportUnknownKeys(allowed: ["name", "x", "y"], owner: "a region")
        guard let name else { return nil }
        return Region(name: name, x: x ?? 0...1, y: y ?? 0...1)
    }

    private static func parseDevice(_ t: TableReader, gestures: [GestureSpec]) -> DeviceRule? {
        var rule = DeviceRule()
        rule.namePattern = t.string("name")
        if let id = t.string("id") {
            let parts = id.split(separator: ":")
            if parts.count == 2, let v = UInt16(parts[0], radix: 16), let p = UInt16(parts[1], radix: 16) {
                rule.vendor = v
                rule.product = p
            } else {
                t.report("id", "expected \"VENDOR:PRODUCT\" in hex, like \"0eef:7224\", found \"\(id)\"")
            }
        }
        if rule.namePattern == nil, !t.has("id") { t.report(nil, "needs a name (glob) or an id (vendor:product) to match devices") }
        rule.ignore = t.bool("ignore") ?? false
        if let rotation = t.int("rotation", in: 0...270) {
            if [0, 90, 180, 270].contains(rotation) { rule.rotation = rotation } else {
                t.report("rotation", "expected 0, 90, 180 or 270 (degrees clockwise), found \(rotation)")
            }
        }
        rule.invertX = t.bool("invert_x") ?? false
        rule.invertY = t.bool("invert_y") ?? false
        if let size = t.pair("size_mm") {
            if size.0 > 0, size.1 > 0 { rule.sizeMM = SizeMM(width: size.0, height: size.1) } else {
                t.report("size_mm", "expected [width, height] in millimetres, both more than 0")
            }
        }
        if let names = t.strings("gestures") {
            for name in names where !gestures.contains(where: { $0.name == name }) {
                t.report("gestures", "no gesture is named \"\(name)\"\(suggestion(for: name, among: gestures.map(\.name)))")
            }
            rule.gestures = names
        }
        t.reportUnknownKeys(allowed: ["name", "id", "ignore", "rotation", "invert_x", "invert_y", "size_mm", "gestures"],
                            owner: "a device")
        return rule
    }

    /// Every gesture's requires_failure_of and simultaneous_with name existing gestures.
    private static func checkReferences(_ gestures: [(GestureSpec, TableReader)]) {
        let names = gestures.map(\.0.name)
        for (spec, table) in gestures {
            for (key, list) in [("requires_failure_of", spec.requiresFailureOf), ("simultaneous_with", spec.simultaneousWith)] {
                for name in list where !names.contains(name) {
                    table.report(key, "no gesture is named \"\(name)\"\(suggestion(for: name, among: names))")
                }
                if list.contains(spec.name) { table.report(key, "a gesture cannot name itself") }
            }
        }
    }
}
