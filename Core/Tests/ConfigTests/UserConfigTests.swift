import Config
import ConfigParsing
import Testing

/// A user's own file (`ConfigScope.user`): gestures, regions and modes are theirs; what
/// belongs to the machine is refused, each at its line, and the same file is good as
/// the machine's.
@Suite struct UserConfigTests {
    func errors(_ text: String, scope: ConfigScope) -> [String] {
        do {
            _ = try Configuration.parse(text, file: "user.toml", scope: scope)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func gesturesRegionsAndModesAreAUsersOwn() throws {
        let text = """
            [daemon]
            modes = ["reading"]
            mode_timeout_s = 30

            [[region]]
            name = "left"
            x = [0.0, 0.2]

            [[gesture]]
            name = "back"
            type = "swipe"
            fingers = 3
            direction = "left"
            region = "left"
            apps = ["firefox"]
            command = "xdotool key alt+Left"

            [[gesture]]
            name = "read"
            type = "tap"
            fingers = 4
            mode = "reading"
            """
        let config = try Configuration.parse(text, file: "user.toml", scope: .user)
        #expect(config.gestures.map(\.name) == ["back", "read"] && config.daemon.modes == ["reading"])
    }

    @Test func whatBelongsToTheMachineIsRefusedAtItsLine() {
        let text = """
            [daemon]
            modes = ["reading"]
            user = "root"
            isolate = true
            wake_command = "true"

            [[gesture]]
            name = "unlock"
            type = "tap"
            when_locked = true
            command = "true"

            [[device]]
            name = "*"
            ignore = true
            """
        let refused = errors(text, scope: .user)
        #expect(refused.count == 5, "\(refused)")
        for (line, key) in [(3, "daemon.user"), (4, "daemon.isolate"), (5, "daemon.wake_command"), (10, "gesture[1].when_locked"), (13, "device[1]")] {
            #expect(refused.contains { $0.hasPrefix("user.toml:\(line):") && $0.contains(key) && $0.contains("the machine's setting") },
                    "line \(line), \(key): \(refused)")
        }
        #expect(errors(text, scope: .machine).isEmpty)
    }
}
