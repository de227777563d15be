import Bindings
import Config
import ConfigParsing
import Foundation
import Testing

/// gestured.toml(5) cannot drift from the parser: each section of the manual lists
/// exactly the keys the parser takes there.
@Suite struct ManualTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("man/gestured.toml.5")

    /// The `.TP` entries (`.BR key " (type, default)"`) under each `.SH [section]` or `[[section]]`.
    func documentedKeys() throws -> [String: Set<String>] {
        var keys: [String: Set<String>] = [:]
        var section: String?
        var previous = ""
        for line in try String(contentsOf: Self.page, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix(".SH ") {
                let title = line.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
                section = Configuration.acceptedKeys[title] != nil ? title : nil
            } else if let section, previous == ".TP", line.hasPrefix(".BR ") {
                keys[section, default: []].insert(String(line.dropFirst(4).prefix { $0 != " " }))
            }
            previous = String(line)
        }
        return keys
    }

    /// Every configuration in EXAMPLES (a `.nf` … `.fi` block) is one gestured accepts.
    @Test func everyExampleIsAValidConfiguration() throws {
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        let examples = text.components(separatedBy: ".SH EXAMPLES").last!.components(separatedBy: ".SH ").first!
        var blocks: [String] = [], block: [Substring]?
        for line in examples.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == ".nf" { block = [] } else if line == ".fi", let done = block { blocks.append(done.joined(separator: "\n")); block = nil } else { block?.append(line) }
        }
        #expect(blocks.count >= 4)
        // The kernel's names of the keys the examples press (libevdev's table, outside the core).
        let keys = KeyCodes(byName: ["KEY_VOLUMEUP": 115, "KEY_VOLUMEDOWN": 114, "KEY_LEFTCTRL": 29, "KEY_LEFTALT": 56,
                                     "KEY_LEFTMETA": 125, "KEY_LEFT": 105, "KEY_RIGHT": 106, "KEY_PAGEDOWN": 109,
                                     "KEY_TAB": 15, "KEY_LEFTSHIFT": 42])
        for example in blocks {
            #expect(throws: Never.self, "\(example)") { _ = try Configuration.parse(example, file: "example.toml", keyCodes: keys) }
        }
    }

    /// Each numeric setting's entry says the range the parser accepts ("1 to 64", "more
    /// than 0 to 10000"; a rotation its four angles).
    @Test func everyNumericSettingStatesItsRange() throws {
        var entry: (key: String, text: String)?
        var missing: [String] = []
        func close() {
            if let entry, entry.text.contains("number") || entry.text.contains("integer"),
               entry.text.range(of: #"[0-9.]+ to [0-9]"#, options: .regularExpression) == nil,
               !entry.text.contains("0, 90, 180 or 270") {
                missing.append(entry.key)
            }
            entry = nil
        }
        var previous = ""
        for line in try String(contentsOf: Self.page, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(".TP") || line.hasPrefix(".PP") || line.hasPrefix(".SH") {
                close()
            } else if previous == ".TP", line.hasPrefix(".BR ") {
                entry = (String(line.dropFirst(4).prefix { $0 != " " }), String(line))
            } else if entry != nil {
                entry!.text += " " + line
            }
            previous = String(line)
        }
        close()
        #expect(missing.isEmpty, "gestured.toml(5) gives no range for \(missing)")
    }

    @Test func everyAcceptedKeyIsDocumentedAndNothingElse() throws {
        let documented = try documentedKeys()
        #expect(Set(documented.keys) == Set(Configuration.acceptedKeys.keys))
        for (section, keys) in Configuration.acceptedKeys {
            let missing = Set(keys).subtracting(documented[section] ?? [])
            let stale = (documented[section] ?? []).subtracting(keys)
            #expect(missing.isEmpty, "gestured.toml(5) [\(section)] lacks \(missing.sorted())")
            #expect(stale.isEmpty, "gestured.toml(5) [\(section)] documents keys the parser refuses: \(stale.sorted())")
        }
    }
}
