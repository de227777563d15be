/// The application in front, as a desktop says it: its Wayland app id, or its X11
/// WM_CLASS class and instance (each side has only its own), and who said so. Names are
/// a peer's words: bounded (`longestName`) and never trusted beyond matching.
public struct AppInFront: Equatable, Sendable {
    public var appID: String?
    public var windowClass: String?
    public var instance: String?
    /// Who said so: "x11", "sway", "hyprland", "wlr-foreign-toplevel", "kwin", "gnome",
    /// "the timeline", an agent.
    public var source: String

    /// The longest name a desktop may give (an app id or a WM_CLASS part, in UTF-8 bytes);
    /// a longer one is refused, not cut, as a cut name could match what it is not.
    public static let longestName = 256

    public init(appID: String? = nil, windowClass: String? = nil, instance: String? = nil, source: String) {
        self.appID = appID
        self.windowClass = windowClass
        self.instance = instance
        self.source = source
    }

    /// The names patterns are matched against, those it has.
    public var names: [String] { [appID, windowClass, instance].compactMap { $0 } }

    /// How the log and `status` name it: the app id, or the class and the instance.
    public var description: String {
        var parts: [String] = []
        if let appID { parts.append(appID) }
        if let windowClass { parts.append(instance.map { "\(windowClass)/\($0)" } ?? windowClass) } else if let instance { parts.append(instance) }
        return parts.isEmpty ? "a window without a name" : parts.joined(separator: " ")
    }
}

/// Which applications a gesture is for (`apps`) and which not (`not_apps`), as shell-style
/// patterns (`*`, `?`, `[a-z]`) matched without regard to ASCII case against any of the
/// app's names. A gesture with `apps` fires only while one of them is in front (never
/// when which is not known); one with only `not_apps` fires for every other application,
/// and when none is known. They are matched against the focused window's application,
/// or (`underTouch`) that of the window under the sequence's first touch.
public struct AppCondition: Equatable, Codable, Sendable {
    public var only: [String] = []
    public var except: [String] = []
    /// The window under the first touch, where the desktop says where its windows are
    /// (`WindowLayout`); the focused window's where it does not.
    public var underTouch = false

    public init(only: [String] = [], except: [String] = [], underTouch: Bool = false) {
        self.only = only
        self.except = except
        self.underTouch = underTouch
    }

    /// Whether it names applications it is for: such a gesture takes precedence over one
    /// of the same trigger for every application (see `GestureGate`).
    public var isSpecific: Bool { !only.isEmpty }
    public var isEverywhere: Bool { only.isEmpty && except.isEmpty }

    public func admits(_ app: AppInFront?) -> Bool {
        guard let app else { return only.isEmpty }
        func names(_ patterns: [String]) -> Bool {
            patterns.contains { pattern in app.names.contains { AppPattern.matches(pattern, $0) } }
        }
        return !names(except) && (only.isEmpty || names(only))
    }
}

/// Shell-style patterns over application names: `*` any run of characters, `?` one,
/// `[abc]`, `[a-z]` and `[!abc]` one of (or none of) a set; ASCII letters match either
/// case. Matched over Unicode scalars, in time proportional to the pattern's length times
/// the name's (one backtrack point: the last `*`).
public enum AppPattern {
    /// Why a pattern is malformed; nil when it is well formed.
    public static func problem(_ pattern: String) -> String? {
        let scalars = Array(pattern.unicodeScalars)
        var i = 0
        while i < scalars.count {
            if scalars[i] == "[" {
                guard let end = classEnd(scalars, from: i) else { return "a \"[\" without its \"]\"; write [[] for a \"[\" itself" }
                i = end
            }
            i += 1
        }
        return nil
    }

    public static func matches(_ pattern: String, _ name: String) -> Bool {
        let p = Array(pattern.unicodeScalars), s = Array(name.unicodeScalars)
        var pi = 0, si = 0
        var star: (pattern: Int, name: Int)?
        while si < s.count {
            if pi < p.count {
                switch p[pi] {
                case "*":
                    star = (pi, si)
                    pi += 1
                    continue
                case "?":
                    pi += 1
                    si += 1
                    continue
                case "[":
                    if let end = classEnd(p, from: pi) {
                        if classContains(p[(pi + 1)..<end], s[si]) {
                            pi = end + 1
                            si += 1
                            continue
                        }
                    } else if same(p[pi], s[si]) {
                        pi += 1
                        si += 1
                        continue
                    }
                default:
                    if same(p[pi], s[si]) {
                        pi += 1
                        si += 1
                        continue
                    }
                }
            }
            // A mismatch: the last `*` takes one more character, or there is no match.
            guard let last = star else { return false }
            star = (last.pattern, last.name + 1)
            pi = last.pattern + 1
            si = last.name + 1
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }

    /// The index of the `]` closing the class opened at `start`: a `]` right after `[` or
    /// `[!` is a member, not the end.
    private static func classEnd(_ p: [Unicode.Scalar], from start: Int) -> Int? {
        var i = start + 1
        if i < p.count, p[i] == "!" { i += 1 }
        if i < p.count, p[i] == "]" { i += 1 }
        while i < p.count {
            if p[i] == "]" { return i }
            i += 1
        }
        return nil
    }

    private static func classContains(_ members: ArraySlice<Unicode.Scalar>, _ c: Unicode.Scalar) -> Bool {
        var members = members
        let negated = members.first == "!"
        if negated { members = members.dropFirst() }
        var found = false
        var i = members.startIndex
        while i < members.endIndex {
            let low = members[i]
            if i + 2 < members.endIndex, members[i + 1] == "-" {
                let range = low.value...max(low.value, members[i + 2].value)
                if range.contains(c.value) || (isLetter(c) && range.contains(otherCase(c).value)) { found = true }
                i += 3
            } else {
                if same(low, c) { found = true }
                i += 1
            }
        }
        return found != negated
    }

    private static func isLetter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }

    private static func otherCase(_ c: Unicode.Scalar) -> Unicode.Scalar {
        if ("a"..."z").contains(c) { return Unicode.Scalar(c.value - 32)! }
        if ("A"..."Z").contains(c) { return Unicode.Scalar(c.value + 32)! }
        return c
    }

    private static func same(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
        a == b || (isLetter(a) && otherCase(a) == b)
    }
}
