import Effects
import Gestures
import Input
import Logging
import SystemIO
import SystemPackage

/// Which application is in front, from the desktop of the session the daemon runs in
/// (the user service): the first the environment names of sway ($SWAYSOCK), i3
/// ($I3SOCK), Hyprland ($HYPRLAND_INSTANCE_SIGNATURE), an X11 session ($DISPLAY
/// without $WAYLAND_DISPLAY: a Wayland compositor's Xwayland knows only its own windows)
/// and another Wayland compositor (its foreign-toplevel manager: labwc, wayfire, river;
/// not GNOME's nor KDE's, which say it through their extension and script). A desktop that goes away (its
/// socket closed, or nonsense on it) leaves no application known, said once, and is
/// connected to again after 5 s, doubling to a minute. Run by the loop as a bus source is.
public final class DesktopFollower: BusSource {
    struct Desktop {
        var source: String
        var connect: () throws(AppWatcherError) -> AppWatcher
    }

    private let desktop: Desktop
    private let logger: Logger
    private var watcher: AppWatcher?
    private var retryAt: Int64?
    private var backoff = Backoff(first: 5_000_000)
    private var saidDown = false
    /// The application in front changed (nil: none, or not known), with who said so.
    var onApp: (_ app: AppInFront?, _ why: String) -> Void = { _, _ in }
    /// Where the windows are changed (nil: not known), with who said so.
    var onWindows: (_ windows: WindowLayout?, _ why: String) -> Void = { _, _ in }
    public var onWatchChange: (_ old: BusService.Watch?, _ new: BusService.Watch?) -> Void = { _, _ in }

    /// The desktop the environment names; nil when it names none.
    static func desktop(in environment: (String) -> String?) -> Desktop? {
        if let path = environment("SWAYSOCK"), !path.isEmpty {
            return Desktop(source: "sway") { () throws(AppWatcherError) in try SwayWatcher(path: path, source: "sway") }
        }
        if let path = environment("I3SOCK"), !path.isEmpty {
            return Desktop(source: "i3") { () throws(AppWatcherError) in try SwayWatcher(path: path, source: "i3") }
        }
        let paths = HyprlandWatcher.socketPath(signature: environment("HYPRLAND_INSTANCE_SIGNATURE"),
                                               runtimeDirectory: environment("XDG_RUNTIME_DIR"))
        if !paths.isEmpty {
            return Desktop(source: "hyprland") { () throws(AppWatcherError) in
                var last = AppWatcherError("no socket")
                for path in paths {
                    do throws(AppWatcherError) { return try HyprlandWatcher(path: path) } catch { last = error }
                }
                throw last
            }
        }
        if let display = environment("DISPLAY"), !display.isEmpty, (environment("WAYLAND_DISPLAY") ?? "").isEmpty {
            return Desktop(source: "x11") { () throws(AppWatcherError) in try X11Watcher(display: display) }
        }
        let current = (environment("XDG_CURRENT_DESKTOP") ?? "").split(separator: ":")
        if let display = environment("WAYLAND_DISPLAY"), !display.isEmpty, !current.contains("GNOME"), !current.contains("KDE") {
            return Desktop(source: "wlr-foreign-toplevel") { () throws(AppWatcherError) in try ToplevelWatcher() }
        }
        return nil
    }

    /// What in this session says which application is in front, for the daemon (the user
    /// service) and the session agent alike: in KDE Plasma the KWin script, loaded into
    /// KWin, which calls ReportApp itself; in GNOME the Shell extension, which the user
    /// enables (said, with how, when neither form runs); and the follower of the desktop the
    /// environment names, whose changes go to `onApp` and `onWindows`. Each is given to
    /// `watch`, then started.
    public static func followThisSession(logger: Logger, watch: (BusSource, String) -> Void,
                                  onApp: @escaping (_ app: AppInFront?, _ why: String) -> Void,
                                  onWindows: @escaping (_ windows: WindowLayout?, _ why: String) -> Void) {
        if let loader = KWinScriptLoader.forThisSession(logger: logger) {
            watch(loader, "KWin")
            loader.start()
        }
        let notifier = Notifier(logger: logger)
        if let check = GnomeExtensionCheck.forThisSession(logger: logger, notify: notifier.notify) {
            watch(notifier, "the session bus")
            watch(check, "GNOME Shell")
            check.start()
        }
        guard let desktop = desktop(in: Environment.value) else { return }
        let follower = DesktopFollower(desktop, logger: logger)
        watch(follower, desktop.source)
        follower.onApp = onApp
        follower.onWindows = onWindows
        follower.start()
    }

    init(_ desktop: Desktop, logger: Logger) {
        self.desktop = desktop
        self.logger = logger
    }

    func start() {
        do {
            let watcher = try desktop.connect()
            self.watcher = watcher
            retryAt = nil
            backoff.reset()
            saidDown = false
            logger.info("\(desktop.source): following the application in front")
            onWatchChange(nil, .reading(watcher.fd))
            rewatchRequest(was: nil)
        } catch {
            down("\(error)")
        }
    }

    public var nextDeadline: Int64? {
        guard let watcher else { return retryAt }
        return watcher.pending ? monotonicMicroseconds() : watcher.deadline
    }

    /// Readable, the watcher's deadline, or a retry due.
    public func process() {
        guard let watcher else {
            if let retryAt, monotonicMicroseconds() >= retryAt { start() }
            return
        }
        let watched = watcher.fd, request = watcher.requestFD
        do {
            let news = try watcher.read()
            // X11's descriptor is the connecting thread's until the connection is made.
            if watcher.fd != watched { onWatchChange(.reading(watched), .reading(watcher.fd)) }
            rewatchRequest(was: request)
            if let app = news.app { onApp(app, desktop.source) }
            if let windows = news.windows { onWindows(windows, desktop.source) }
        } catch {
            onWatchChange(.reading(watched), nil)
            if let request { onWatchChange(.reading(request), nil) }
            watcher.close()
            self.watcher = nil
            onApp(nil, "\(desktop.source) went away")
            onWindows(nil, "\(desktop.source) went away")
            down("\(error)")
        }
    }

    /// The watcher's question socket, watched anew after each read: one closed and
    /// another opened may have the same number, so the old is unwatched and the new
    /// watched even when they look alike.
    private func rewatchRequest(was old: FileDescriptor?) {
        if let old { onWatchChange(.reading(old), nil) }
        if let new = watcher?.requestFD { onWatchChange(nil, .reading(new)) }
    }

    private func down(_ why: String) {
        if !saidDown { logger.warning("\(desktop.source): \(why); no application is known in front until it answers (tried again every \(backoff.delay / 1_000_000) s and more)") }
        saidDown = true
        retryAt = backoff.next(after: monotonicMicroseconds())
    }
}
