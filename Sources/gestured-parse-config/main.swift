// gestured-parse-config: the TOML parser's process. gestured gives it a
// configuration's text on stdin and reads a `ParseOutcome` from stdout (see
// Input/ConfigParse.swift): toml++ aborts on some malformed files (located here, see
// CrashLocator) and TOMLKit leaks what it returns, so neither runs in the daemon, which
// links neither. Not for people.
import ConfigDocument
import ConfigSyntax
import SystemIO

let outcome: ParseOutcome
do {
    let bytes = try Files.read(.standardInput, atMost: ParseOutcome.maximumTextSize)
    outcome = CrashLocator.parse(String(decoding: bytes, as: UTF8.self))
} catch {
    outcome = .notTOML(line: nil, column: nil, message: "cannot read the text: \(error)")
}
let output = OutputBuffer()
output.write(bytes: outcome.encoded)
output.flush()
