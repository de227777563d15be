import Config
import ConfigDocument
import ConfigSyntax
import FuzzSupport

/// The configuration loader on any bytes (TOML → validated model): a configuration or
/// located errors. The TOML parser inside TOMLKit aborts on some inputs; the daemon parses
/// in a child process for that reason, and `scripts/fuzz` replays every crash found here
/// through `gestured check` to show that none reaches it. The same bytes, read as what
/// that process hands back (`ParseOutcome`), are refused or read whole, never trapping;
/// and a document parsed here reads back the same.
@_cdecl("FuzzConfig_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in
        let input = bytes(data, size)
        // Compared as bytes: a NaN is not equal to itself.
        if let outcome = ParseOutcome(decoding: input),
           !outcome.encoded.elementsEqual(ParseOutcome(decoding: outcome.encoded)?.encoded ?? []) {
            violated("an outcome that does not read back")
        }
        let parsed = ParseOutcome(parsing: String(decoding: input, as: UTF8.self))
        if !parsed.encoded.elementsEqual(ParseOutcome(decoding: parsed.encoded)?.encoded ?? []) { violated("a document that does not read back") }
        do throws(ConfigErrors) {
            // As the daemon reads a file: refused unless it is text, which is then what was parsed.
            let text = try Configuration.text(of: input, file: "fuzz.toml")
            let config = try Configuration.check(parsed, text: text, file: "fuzz.toml")
            if config.bindings.count != config.gestures.count { violated("a binding per gesture") }
        } catch {
            if error.errors.isEmpty { violated("refused without an error") }
            for e in error.errors where e.file != "fuzz.toml" { violated("an error naming another file: \(e)") }
        }
        return 0
    }
}
