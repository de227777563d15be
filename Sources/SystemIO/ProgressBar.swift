#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// A progress bar on stderr, only when stderr is a terminal (a person watching; never in
/// a log or a pipe).
public struct ProgressBar {
    private var shown = -1
    private let visible: Bool

    /// `besideOutput`: the command prints lines as it goes; a bar on the same terminal
    /// would cut them up, so it shows only while stdout goes elsewhere (a file, a pipe).
    public init(besideOutput: Bool = false) {
        visible = isTerminal(.standardError) && !(besideOutput && isTerminal(.standardOutput))
    }

    public mutating func update(done: Int, total: Int) {
        let percent = total == 0 ? 100 : done * 100 / total
        guard visible, percent != shown else { return }
        shown = percent
        let width = 40, filled = percent * width / 100
        printErrorRaw("\r[\(String(repeating: "=", count: filled))\(String(repeating: " ", count: width - filled))] \(done)/\(total)")
    }

    /// Clears the bar before an error line is printed; the next update draws it again.
    public mutating func clear() {
        guard visible, shown >= 0 else { return }
        finish()
        shown = -1
    }

    public func finish() {
        if visible { printErrorRaw("\r\(String(repeating: " ", count: 60))\r") }
    }
}
