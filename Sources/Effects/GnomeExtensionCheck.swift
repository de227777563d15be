import Logging
import SystemIO

/// In a GNOME session, asks GNOME Shell (`org.gnome.Shell.Extensions.GetExtensionInfo`)
/// about gestured's two extensions, the ES module for GNOME 45 and later and the legacy
/// form for 43 and 44, and says what to do when neither runs: the application in front is
/// known only through it. Asked once, at the start (GNOME Shell starts the session, so it
/// is there); every call asynchronous, on a connection of its own closed once done.
public final class GnomeExtensionCheck: SessionBusQuestions {
    public static let modern = "gestured@gestured.github.io"
    public static let legacy = "gestured-43@gestured.github.io"
    /// The releases the ES module's metadata.json names: those it was run in, in a real
    /// GNOME Shell (tests/real_desktops.py, in Debian's roots).
    static let modernReleases = "45 to 51"
    private let notify: (String, String) -> Void

    /// A check in a GNOME session ($XDG_CURRENT_DESKTOP names GNOME); nil elsewhere.
    /// `notify`: a notification's summary and body, for what the user should do.
    public static func forThisSession(logger: Logger, notify: @escaping (String, String) -> Void) -> GnomeExtensionCheck? {
        guard (Environment.value("XDG_CURRENT_DESKTOP") ?? "").split(separator: ":").contains("GNOME") else { return nil }
        return GnomeExtensionCheck(logger: logger, notify: notify)
    }

    init(logger: Logger, notify: @escaping (String, String) -> Void) {
        self.notify = notify
        super.init(what: "GNOME Shell", logger: logger)
    }

    public func start() {
        if let why = open() { return logger.warning("GNOME Shell: \(why); cannot say whether gestured's extension runs") }
        state(of: Self.modern) { [unowned self] modern in
            state(of: Self.legacy) { [unowned self] legacy in
                let (level, advice) = Self.advice(modern: modern, legacy: legacy)
                if level == .info {
                    logger.info("GNOME Shell: \(advice)")
                } else {
                    logger.warning("GNOME Shell: \(advice)")
                    notify("gestured: gestures bound to applications cannot work", advice)
                }
                close()
            }
        }
    }

    /// The state GNOME Shell gives an extension (nil: it knows none of that name), to
    /// `answer`; an error reply is said, and the check ends there.
    private func state(of uuid: String, _ answer: @escaping (Double?) -> Void) {
        let asked = ask(.gnomeExtensionState(uuid)) { [unowned self] reply, state in
            if let error = SDBus.error(of: reply) {
                logger.warning("GNOME Shell: cannot ask about gestured's extension (\(error)); gestures bound to applications need it enabled")
                return close()
            }
            answer(state ?? nil)
        }
        if !asked { logger.warning("GNOME Shell: cannot ask about gestured's extension") }
    }

    /// What to say, from the two extensions' states as GNOME Shell gives them (nil: it
    /// knows no such extension): 1 runs (ENABLED, ACTIVE since 45), 2 and 6 installed but
    /// not enabled, 3 failed, 4 not for this Shell's version.
    static func advice(modern: Double?, legacy: Double?) -> (Logger.Level, String) {
        let known = [(modern, Self.modern), (legacy, Self.legacy)]
        if let (_, uuid) = known.first(where: { $0.0 == 1 }) { return (.info, "\(uuid) runs: it says which application is in front") }
        if let (_, uuid) = known.first(where: { $0.0 == 3 }) {
            return (.warning, "\(uuid) failed to start; `gnome-extensions info \(uuid)` says why. Gestures bound to applications do not see the application in front")
        }
        if let (_, uuid) = known.first(where: { $0.0 != nil && $0.0 != 4 }) {
            return (.warning, "gestured's extension is not enabled, so gestures bound to applications do not see the application in front: "
                    + "run `gnome-extensions enable \(uuid)` (if it is enabled, extensions may be switched off: "
                    + "`gsettings set org.gnome.shell disable-user-extensions false`)")
        }
        if modern == nil, legacy == nil {
            return (.warning, "gestured's extension is not installed (/usr/share/gnome-shell/extensions/\(Self.modern)); gestures bound to applications do not see the application in front")
        }
        return (.warning, "this GNOME Shell loads neither of gestured's extensions (\(Self.modern) is for GNOME \(Self.modernReleases), \(Self.legacy) for 43 and 44), "
                + "so gestures bound to applications do not see the application in front. A GNOME Shell newer than these may load it anyway: "
                + "`gsettings set org.gnome.shell disable-extension-version-validation true`, then log in again")
    }

}
