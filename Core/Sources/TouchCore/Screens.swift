/// The screens the graphics cards drive, as the kernel's DRM connectors say (or a replay's
/// timeline): each connected one by its name (`eDP-1`, `HDMI-A-1`, as compositors and
/// xrandr name outputs) and whether it is lit. A panel belongs to the screen its
/// `[[device]]` rule names, else to the built-in one (a laptop's or a tablet's own), else
/// to the only one there is; several external screens and no rule: to all of them.
public struct Screens: Sendable, Equatable {
    public struct Screen: Sendable, Equatable {
        public var name: String
        public var lit: Bool

        public init(name: String, lit: Bool) {
            self.name = name
            self.lit = lit
        }

        /// eDP, LVDS and DSI connect a panel inside the machine (what libinput and mutter
        /// call the built-in display); everything else is plugged in.
        public var isBuiltIn: Bool { Self.builtInPrefixes.contains { name.hasPrefix($0) } }
        private static let builtInPrefixes = ["eDP", "LVDS", "DSI"]
    }

    /// Connected screens, in the order given, at most `mostScreens`.
    public private(set) var screens: [Screen]

    /// More than any machine drives: the rest are left out.
    public static let mostScreens = 32
    /// A connector's name is a kernel's: longer ones are not screens.
    public static let longestName = 64

    public init(_ screens: [Screen]) {
        self.screens = Array(screens.lazy.filter { !$0.name.isEmpty && $0.name.utf8.count <= Self.longestName }.prefix(Self.mostScreens))
    }

    /// The screens a panel belongs to: the one `output` names (none when it is not
    /// connected), else the built-in one, else every screen.
    public func screens(forOutput output: String?) -> ArraySlice<Screen> {
        if let output { return screens.firstIndex { $0.name == output }.map { screens[$0...$0] } ?? [] }
        if let builtIn = screens.firstIndex(where: \.isBuiltIn) { return screens[builtIn...builtIn] }
        return screens[...]
    }

    /// The panel's screen is dark: every screen it may belong to is off, and there is one.
    /// A screen not known is never dark, so that a touch is never taken for a waking one
    /// on a guess.
    public func isDark(forOutput output: String?) -> Bool {
        let mine = screens(forOutput: output)
        return !mine.isEmpty && mine.allSatisfy { !$0.lit }
    }

    /// Its screen's name for `devices` and `status`: the one it belongs to, or nil.
    public func name(forOutput output: String?) -> String? {
        let mine = screens(forOutput: output)
        return mine.count == 1 ? mine.first?.name : nil
    }

    /// For `devices` and `status`: the panel's screens, whether each is lit, and why they
    /// are its.
    public func describe(forOutput output: String?) -> String {
        let mine = screens(forOutput: output)
        if mine.isEmpty { return output.map { "\($0) (its rule's output), not connected" } ?? "none connected" }
        let whose = output != nil ? "its rule's output" : mine.count > 1 ? "no built-in screen: every screen"
            : mine.first!.isBuiltIn ? "the built-in screen" : "the only screen"
        return mine.map { "\($0.name) \($0.lit ? "on" : "off")" }.joined(separator: ", ") + " (\(whose))"
    }

    /// As a timeline writes it: `eDP-1=on HDMI-A-1=off`, or `none`.
    public var description: String {
        screens.isEmpty ? "none" : screens.map { "\($0.name)=\($0.lit ? "on" : "off")" }.joined(separator: " ")
    }
}
