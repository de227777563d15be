@testable import Effects
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
    }
}
