import Bindings
import Config
import Effects
import Input
import Logging
import Pipeline
import SystemIO

/// The session agent's user's configuration (`~/.config/gestured/gestured.toml`): read,
/// parsed and checked as a user's (`ConfigScope.user`) at start, every 2 s when the file
/// changed (written, replaced, removed), and at SIGHUP; each good one is handed to the
/// system service (`ConfigHandOver`), and a missing file hands over none (the user's
/// gestures are dropped). Errors, the agent's own or gestured's refusal, are logged with
/// their lines and shown as a notification. What gestured took is what the agent runs
/// commands from: an Act names a binding of that configuration.
final class UserConfigFollower {
    let path: String
    private let logger: Logger
    private let handOver: ConfigHandOver
    private let notifier: Notifier
    /// The file as last read (nil: missing), to see it change.
    private var seen: [Int64]?? = .none
    private var nextLook: Int64 = 0
    static let lookEvery: Int64 = 2_000_000
    /// Handed over, not yet answered; and the one gestured took.
    private var handed: Configuration?
    private(set) var taken: Configuration?

    init(path: String, handOver: ConfigHandOver, notifier: Notifier, logger: Logger) {
        self.path = path
        self.handOver = handOver
        self.notifier = notifier
        self.logger = logger
        handOver.onAnswer = { [unowned self] refusal in answered(refusal) }
    }

    var nextDeadline: Int64? { nextLook }

    /// Looks at the file when due (or now, `force`), and hands it over if it changed.
    func look(now: Int64, force: Bool = false) {
        guard force || now >= nextLook else { return }
        nextLook = now + Self.lookEvery
        let version = (try? FileStatus(path))?.version
        if !force, case .some(let last) = seen, last == version { return }
        seen = .some(version)
        guard version != nil else { return hand(nil) }
        let bytes: [UInt8]
        do { bytes = try readConfiguration(path) } catch { return refuse("\(error)") }
        hand(bytes)
    }

    private func hand(_ bytes: [UInt8]?) {
        let push: UserPush
        let config: Configuration
        do {
            let parsed = try ConfigParse.userPush(bytes ?? [], file: path)
            push = parsed.push
            config = try Configuration.check(parsed.outcome, text: push.text, file: path, keyCodes: .libevdev, scope: .user)
        } catch {
            return refuse("\(error)")
        }
        handed = config
        logger.info(bytes == nil ? "\(path): none; handing gestured no gestures of this user's"
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
