/// How gestured names the devices it makes (UI_SET_PHYS), and so tells them from those it
/// reads and finds whether a panel is isolated: a twin's is `gestured-twin/` and its
/// panel's phys (its node when it has none); the virtual keyboard's and pointer's are
/// `gestured-virtual/keyboard` and `gestured-virtual/pointer`.
public enum TwinPhys {
    public static let prefix = "gestured-twin/"
    public static let virtualPrefix = "gestured-virtual/"
    public static let keyboard = virtualPrefix + "keyboard"
    public static let pointer = virtualPrefix + "pointer"
    public static let touchpad = virtualPrefix + "touchpad"

    public static func of(panel phys: String?, node: String) -> String {
        prefix + (phys.flatMap { $0.isEmpty ? nil : $0 } ?? node)
    }

    /// Whether gestured made the device with this phys: never one to read.
    public static func marks(_ phys: String?) -> Bool {
        guard let phys else { return false }
        return phys.hasPrefix(prefix) || phys.hasPrefix(virtualPrefix)
    }
}
