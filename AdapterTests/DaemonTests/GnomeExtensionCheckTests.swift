@testable import Effects
import Foundation
import Testing

/// What the agent says of gestured's GNOME Shell extension, from the states GNOME Shell
/// gives for its two forms (nil: unknown to it).
struct GnomeExtensionCheckTests {
    func advice(_ modern: Double?, _ legacy: Double?) -> String {
        let (level, text) = GnomeExtensionCheck.advice(modern: modern, legacy: legacy)
        return "\(level): \(text)"
    }

    @Test func eitherFormRunningIsEnough() {
        #expect(advice(1, 4).hasPrefix("info: gestured@gestured.github.io runs"))
        #expect(advice(4, 1).hasPrefix("info: gestured-43@gestured.github.io runs"))
    }

    @Test func theFormThisShellLoadsIsTheOneToEnable() {
        // GNOME 46: the module form is disabled, the legacy one out of date.
        #expect(advice(2, 4).contains("run `gnome-extensions enable gestured@gestured.github.io`"))
        // GNOME 43: the other way round (6: installed, never enabled).
        #expect(advice(4, 6).contains("run `gnome-extensions enable gestured-43@gestured.github.io`"))
    }

    @Test func failedMissingAndTooNewAreEachSaid() {
        #expect(advice(3, 4).contains("gestured@gestured.github.io failed to start"))
        #expect(advice(nil, nil).contains("is not installed"))
        #expect(advice(4, 4).contains("loads neither"))
        #expect(advice(4, 4).hasPrefix("warning"))
        #expect(advice(4, 4).contains("disable-extension-version-validation true"))
    }

    /// The releases the advice names are those the module's metadata.json lists.
    @Test func theReleasesSaidAreTheMetadatas() throws {
        let metadata = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../desktop/gnome-shell/gestured@gestured.github.io/metadata.json")
        let text = try String(contentsOf: metadata, encoding: .utf8)
        let listed = text.split(separator: "\"shell-version\": [")[1].prefix { $0 != "]" }
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        #expect(GnomeExtensionCheck.modernReleases == "\(listed.first!) to \(listed.last!)")
        #expect(listed.map { Int($0)! } == Array(Int(listed.first!)!...Int(listed.last!)!))
    }
}
