import Bindings
import Config
import Gestures
import ConfigDocument
import ConfigEdit
import ConfigParsing
import ConfigSyntax
import Input
import SystemIO

/// The files the studio shows: the user's, edited and saved a gesture at a time, and
/// the machine's, shown beside it and never written.
struct StudioFiles {
    let userPath: String
    private(set) var user: ConfigText
    /// What the user's file says, as the parser reads it (nil: not TOML yet).
    private(set) var userGestures: [ConfigTable] = []
    let machineGestures: [GestureSketch]?
    /// The machine's file, nil when it cannot be read here.
    private let machine: String?
    private let machinePath: String

    init(userPath: String, machinePath: String) {
        self.userPath = userPath
        self.machinePath = machinePath
        user = ConfigText(Self.read(userPath))
        machine = (try? Files.read(machinePath, atMost: Configuration.maximumFileSize)).map { String(decoding: $0, as: UTF8.self) }
        machineGestures = machine.map { Self.gestures($0).map(GestureSketch.init) }
        userGestures = Self.gestures(user.text)
    }

    /// Whether the machine's file isolates the panels (`[daemon] isolate`).
    var machineIsolates: Bool {
        machine.flatMap { try? Configuration.parse($0, file: machinePath, keyCodes: KeyCodes.libevdev) }?.daemon.isolate ?? false
    }

    /// The learned shapes of the user's file and the machine's, as the recognizers take them.
    var learnedShapes: [GestureSpec] {
        let user = try? Configuration.parse(user.text, file: userPath, keyCodes: KeyCodes.libevdev, scope: .user)
        let machine = machine.flatMap { try? Configuration.parse($0, file: machinePath, keyCodes: KeyCodes.libevdev) }
        return ((user?.gestures ?? []) + (machine?.gestures ?? [])).filter { $0.type == .stroke }
    }

    private static func read(_ path: String) -> String {
        (try? Files.read(path, atMost: Configuration.maximumFileSize)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Whether the file on disk is no longer the one shown (written by another program
    /// meanwhile); then it is read again.
    mutating func changedOnDisk() -> Bool {
        let now = Self.read(userPath)
        guard now != user.text else { return false }
        user = ConfigText(now)
        userGestures = Self.gestures(now)
        return true
    }

    static func gestures(_ text: String) -> [ConfigTable] {
        guard case .document(let root) = ParseOutcome(parsing: text) else { return [] }
        return root["gesture"]?.array?.compactMap(\.table) ?? []
    }

    /// The errors `gestured check --user` would give the text, the file's name theirs.
    func problems(of text: ConfigText) -> [ConfigError] {
        do {
            _ = try Configuration.parse(text.text, file: userPath, keyCodes: KeyCodes.libevdev, scope: .user)
            return []
        } catch {
            return error.errors
        }
    }

    /// Written over the user's file, at once, if the checker takes it; else its errors.
    mutating func save(_ text: ConfigText) -> [ConfigError] {
        let problems = problems(of: text)
        guard problems.isEmpty else { return problems }
        do {
            try Files.replace(userPath, with: text.text, permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            return [ConfigError(file: userPath, message: "cannot write it: \(error)")]
        }
        user = text
        userGestures = Self.gestures(text.text)
        return []
    }
}
