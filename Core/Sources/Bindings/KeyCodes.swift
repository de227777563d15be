/// The kernel's key and button codes by name (`KEY_*` and `BTN_*` of
/// linux/input-event-codes.h), as the OS edge reads them from libevdev's tables: the core
/// holds no list of its own. `keys` names keys (`KEY_*`, without case, with or without
/// the prefix: `Right`, `KEY_RIGHT`) and the modifiers by their usual names: ctrl, alt,
/// shift, super and meta, altgr. Buttons are `click`'s.
public struct KeyCodes: Codable, Equatable, Sendable {
    /// Upper-case names with their prefix (`KEY_RIGHT`, `BTN_LEFT`) → codes.
    public private(set) var byName: [String: UInt16]

    public init(byName: [String: UInt16] = [:]) {
        self.byName = byName
    }

    static let modifiers = ["CTRL": "KEY_LEFTCTRL", "CONTROL": "KEY_LEFTCTRL", "ALT": "KEY_LEFTALT", "SHIFT": "KEY_LEFTSHIFT",
                            "SUPER": "KEY_LEFTMETA", "META": "KEY_LEFTMETA", "WIN": "KEY_LEFTMETA", "ALTGR": "KEY_RIGHTALT"]

    public var isEmpty: Bool { byName.isEmpty }

    /// The code of one key name, nil when there is none of that name.
    public func code(_ name: String) -> UInt16? {
        let upper = name.uppercased()
        if let full = Self.modifiers[upper] { return byName[full] }
        return byName[upper.hasPrefix("KEY_") ? upper : "KEY_" + upper]
    }

    /// What a name could have been, for an error's "did you mean": the key names as
    /// written in a configuration (without `KEY_`), and the modifiers.
    public var writtenNames: [String] {
        byName.keys.filter { $0.hasPrefix("KEY_") }.map { String($0.dropFirst(4)) } + Self.modifiers.keys.map { $0.lowercased() }
    }

    /// The key codes, for a virtual keyboard that can press them all.
    public var keys: [UInt16] { byName.filter { $0.key.hasPrefix("KEY_") }.map(\.value).sorted() }

    /// A chord as written, `ctrl+alt+Right`: its codes in order, or the name not found.
    public func chord(_ text: String) -> Result<[UInt16], UnknownKey> {
        var codes: [UInt16] = []
        for part in text.split(separator: "+", omittingEmptySubsequences: false) {
            let name = part.trimmingWhitespace
            guard let code = code(name) else { return .failure(UnknownKey(name: name)) }
            codes.append(code)
        }
        return .success(codes)
    }

    public struct UnknownKey: Error, Equatable {
        public var name: String
    }
}

extension Substring {
    var trimmingWhitespace: String { String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }
}
