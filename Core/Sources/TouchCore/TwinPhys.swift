/// How gestured names its twins (UI_SET_PHYS), and so tells them from touchscreens and
/// finds whether a panel is isolated: `gestured-twin/` and the panel's phys (its node when
/// it has none).
public enum TwinPhys {
    public static let prefix = "gestured-twin/"

    public static func of(panel phys: String?, node: String) -> String {
        prefix + (phys.flatMap { $0.isEmpty ? nil : $0 } ?? node)
    }

    public static func marks(_ phys: String?) -> Bool { phys?.hasPrefix(prefix) ?? false }
}
