/// The screens the graphics cards drive, as the kernel's DRM connectors say (or a replay's
/// timeline): each connected one by its name (`eDP-1`, `HDMI-A-1`, as compositors and
/// xrandr name outputs), whether the desktop uses it, and whether it is lit. A panel
/// belongs to the screen its `[[device]]` rule names, else to the built-in one (a
/// laptop's or a tablet's own) while it is in use, else to the only screen in use;
/// several and no rule: to all of them. A built-in screen not in use (a laptop's lid
/// closed, the output turned off in the display settings) is not taken for a dark one:
/// a touchscreen without a rule is then on the screens in use.
public struct Screens: Sendable, Equatable {
    public struct Screen: Sendable, Equatable {
        public var name: String
        public var lit: Bool
        /// Driven by the desktop (its connector `enabled`); blanked or not.
        public var inUse: Bool

        public init(name: String, lit: Bool, inUse: Bool = true) {
            self.name = name
            self.lit = lit && inUse
            self.inUse = inUse
        }

        public var isBuiltIn: Bool { Screens.isBuiltIn(name) }

        /// on, off (blanked), or unused; as a timeline writes it.
        public var state: String { !inUse ? "unused" : lit ? "on" : "off" }
    }

    /// eDP, LVDS and DSI connect a panel inside the machine (what libinput and mutter call
    /// the built-in display); everything else is plugged in.
    public static func isBuiltIn(_ name: String) -> Bool { builtInPrefixes.contains { name.hasPrefix($0) } }
    private static let builtInPrefixes = ["eDP", "LVDS", "DSI"]

    /// Connected screens, in the order given, at most `mostScreens`.
    public private(set) var screens: [Screen]

    /// More than any machine drives: the rest are left out.
    public static let mostScreens = 32
    /// A connector's name is a kernel's: longer ones are not screens.
    public static let longestName = 64

    /// A name that is not a connector's (empty, over `longestName`, anything but printable
    /// ASCII without spaces, as the kernel names them) leaves its screen out: names go into
    /// log lines and the timeline's words.
    public init(_ screens: [Screen]) {
        self.screens = Array(screens.lazy.filter { Self.isConnectorName($0.name) }.prefix(Self.mostScreens))
    }

    static func isConnectorName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= longestName && name.utf8.allSatisfy { (0x21...0x7e).contains($0) }
    }

    /// The screens a panel belongs to: the one `output` names (none when it is not
    /// connected), else the built-in one in use, else every screen in use.
    public func screens(forOutput output: String?) -> [Screen] {
        if let output { return screens.filter { $0.name == output }.prefix(1).map { $0 } }
        if let builtIn = screens.first(where: { $0.isBuiltIn && $0.inUse }) { return [builtIn] }
        return screens.filter(\.inUse)
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
        return mine.map { "\($0.name) \($0.state)" }.joined(separator: ", ") + " (\(whose))"
    }

    /// As a timeline writes it: `eDP-1=on HDMI-A-1=off`, or `none`.
    public var description: String {
        screens.isEmpty ? "none" : screens.map { "\($0.name)=\($0.state)" }.joined(separator: " ")
    }
}
