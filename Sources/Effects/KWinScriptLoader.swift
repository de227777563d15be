import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import Logging
import SystemIO
import SystemPackage

/// Loads gestured's KWin script into the running KWin through its scripting D-Bus
/// interface (`org.kde.KWin /Scripting`: `loadScript(file, "gestured")`, then `run` on the
/// script's object: `/Scripting/Script<id>` in Plasma 6, `/<id>` before), unless one of
/// that name is loaded already; every call asynchronous on a session-bus connection of
/// its own, closed once done. What fails is said once: per-application gestures then
/// need the script enabled in KWin's settings.
public final class KWinScriptLoader: SessionBusQuestions {
    static let pluginName = "gestured"
    private let file: String

    /// The script's main file, installed beside gestured (`../share/kwin/scripts/gestured/`),
    /// or in the source tree of a build (`.build/<triple>/<configuration>/gestured`).
    public static var installedScript: String {
        Files.besideProgram(installed: "../share/kwin/scripts/gestured/contents/code/main.js",
                            inBuild: "../../../desktop/kwin/contents/code/main.js")
    }

    /// A loader in a KDE Plasma session ($XDG_CURRENT_DESKTOP names KDE); nil elsewhere.
    public static func forThisSession(logger: Logger) -> KWinScriptLoader? {
        guard (Environment.value("XDG_CURRENT_DESKTOP") ?? "").split(separator: ":").contains("KDE") else { return nil }
        return KWinScriptLoader(logger: logger)
    }

    public init(file: String = KWinScriptLoader.installedScript, logger: Logger) {
        self.file = file
        super.init(what: "KWin", logger: logger)
    }

    public func start() {
        guard Files.exists(file) else { return fail("its script is not installed (\(file))") }
        if let why = open() { return fail(why) }
        ask(.kwinScriptLoaded(Self.pluginName)) { [unowned self] loaded in
            guard let loaded else { return fail("KWin's answer to isScriptLoaded is unreadable") }
            if loaded { return done("gestured's script is loaded already") }
            ask(.kwinLoadScript(file, as: Self.pluginName)) { [unowned self] id in
                guard let id, id >= 0 else { return fail("KWin did not load \(file)") }
                ask(.kwinRunScript(at: "/Scripting/Script\(id)")) { [unowned self] _ in
                    done("loaded gestured's script (\(id)): KWin says which application is in front")
                } orElse: { [unowned self] _ in
                    // Plasma 5's object path.
                    ask(.kwinRunScript(at: "/\(id)")) { [unowned self] _ in
                        done("loaded gestured's script (\(id)): KWin says which application is in front")
                    }
                }
            }
        }
    }

    /// Asks KWin; an error reply goes to `orElse`, or ends the loading.
    private func ask<Answer>(_ question: BusQuestion<Answer>, _ answer: @escaping (Answer?) -> Void, orElse: ((String) -> Void)? = nil) {
        let asked = ask(question) { [unowned self] reply, said in
            if let error = SDBus.error(of: reply) {
                if let orElse { return orElse(error) }
                return fail("KWin refuses \(question.member) (\(error))")
            }
            answer(said)
        }
        if !asked { fail("cannot ask KWin") }
    }

    private func done(_ what: String) {
        logger.info("KWin: \(what)")
        close()
    }

    private func fail(_ why: String) {
        logger.warning("KWin: cannot load gestured's script: \(why); enable it in System Settings, Window Management, KWin Scripts, for gestures with apps")
        close()
    }

}
