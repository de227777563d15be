#if canImport(Glibc)
import Glibc
#endif
import Bindings
import Config
import Effects
import Input
import Logging
import Loop
import Pipeline
import SystemIO
import SystemPackage

/// The session agent's user's configuration (`~/.config/gestured/gestured.toml`): read,
/// parsed and checked as a user's (`ConfigScope.user`) at start, when the file changed
/// (written, replaced, removed, made: `FileWatch`, 100 ms after the last sign so that an
/// editor's several writes make one look), and at SIGHUP; each good one is handed to the
/// system service (`ConfigHandOver`), and a missing file hands over none (the user's
/// gestures are dropped). Errors, the agent's own or gestured's refusal, are logged with
/// their lines and shown as a notification. What gestured took is what the agent runs
/// commands from: an Act names a binding of that configuration.
///
/// The parsing helper runs beside the agent's loop, as the daemon's reload's does
/// (`Runtime.parse`: its output read, its exit reaped, killed after 10 s). One at a time:
/// when one is done the file is looked at again, for a change meanwhile. Where inotify cannot be had (the user's instances used
/// up), the file is looked at every 2 s instead, and that is logged.
final class UserConfigFollower {
    let path: String
    private let logger: Logger
    private let runtime: Runtime
    private let handOver: ConfigHandOver
    private let notifier: Notifier
    /// The file's changes; nil: looked at every `pollEvery`.
    let fileWatch: FileWatch?
    /// The file as last read (nil: missing), to see it change.
    private var seen: [Int64]?? = .none
    /// When to look at the file next; nil: at its next change.
    private var nextLook: Int64? = 0
    static let pollEvery: Int64 = 2_000_000
    static let settle: Int64 = 100_000
    /// Handed over, not yet answered; and the one gestured took.
    private var handed: Configuration?
    private(set) var taken: Configuration?
    init(path: String, runtime: Runtime, handOver: ConfigHandOver, notifier: Notifier, logger: Logger) {
        self.path = path
        self.runtime = runtime
        self.handOver = handOver
        self.notifier = notifier
        self.logger = logger
        do { fileWatch = try FileWatch(path: path) } catch {
            fileWatch = nil
            logger.warning("cannot watch \(path) (inotify: \(error)); looking at it every \(Self.pollEvery / 1_000_000) s instead")
        }
        handOver.onAnswer = { [unowned self] refusal in answered(refusal) }
    }

    var nextDeadline: Int64? { nextLook }

    /// The file watch's descriptor was readable: a look soon, if the file may have changed.
    func fileEvents(now: Int64) {
        guard let fileWatch, fileWatch.changed() else { return }
        fileWatch.rewatch()
        nextLook = min(nextLook ?? .max, now + Self.settle)
    }

    /// Looks at the file when due (or now, `force`), and starts parsing it if it changed.
    func look(now: Int64, force: Bool = false) {
        guard force || nextLook.map({ now >= $0 }) == true else { return }
        nextLook = fileWatch == nil ? now + Self.pollEvery : nil
        // One parse at a time; what changed meanwhile is seen when it is done.
        guard !runtime.isParsing else { return }
        let version = (try? FileStatus(path))?.version
        if !force, case .some(let last) = seen, last == version { return }
        seen = .some(version)
        var bytes: [UInt8] = []
        if version != nil {
            do { bytes = try readConfiguration(path) } catch { return refuse("\(error)") }
        }
        do {
            try runtime.parse(bytes, file: path) { [unowned self] parse, status in parsed(parse, status, missing: version == nil) }
        } catch {
            refuse("\(error)")
        }
    }

    /// The helper is done: the user's configuration checked, and handed over.
    private func parsed(_ parse: ConfigParse, _ status: Spawn.ExitStatus, missing: Bool) {
        nextLook = 0  // a change while it parsed: seen now
        let push: UserPush
        let config: Configuration
        do {
            let parsed = try parse.userPush(status)
            push = parsed.push
            config = try Configuration.check(parsed.outcome, text: push.text, file: path, keyCodes: .libevdev, scope: .user)
        } catch {
            return refuse("\(error)")
        }
        handed = config
        logger.info(missing ? "\(path): none; handing gestured no gestures of this user's"
            : "\(path): \(config.gestures.count) gestures, handed to gestured")
        handOver.hand(push)
    }

    private func answered(_ refusal: String?) {
        guard let refusal else {
            if taken == nil || taken != handed { logger.info("gestured took \(path)") }
            taken = handed
            return
        }
        refuse("gestured refuses it: \(refusal.prefix(8192))")
    }

    private func refuse(_ why: String) {
        logger.error("\(path): not in force, the last one taken stays:\n\(why)")
        notifier.notify("gestured: \(path) is not in force", why)
    }
}
