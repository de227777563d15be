#if canImport(Glibc)
import Glibc
#endif
import Gestures
import Pipeline
import SystemIO
import SystemPackage

/// The session agent's overlay on a Wayland compositor with the layer shell (sway,
/// Hyprland, labwc, wayfire, river, KDE Plasma): drawn by the helper `gestured-overlay`,
/// which links libwayland-client, from a line per update on its stdin (see the helper).
/// The pipe's end is ours and non-blocking: an update the helper has not taken yet is
/// dropped (the next one draws the fingers where they are then), so a stalled compositor
/// holds up the helper and nothing else. The helper's words (why it ended) are read
/// from its output.
public final class WaylandOverlay {
    /// The helper: installed in ../libexec/gestured/ from gestured's own directory, or
    /// beside it in a build tree.
    public static let helper = Files.besideProgram(installed: "../libexec/gestured/gestured-overlay", inBuild: "gestured-overlay")

    public let pid: pid_t
    /// The helper's output: its words, to watch.
    public let output: FileDescriptor
    private let input: FileDescriptor
    private var words: [UInt8] = []
    public private(set) var dropped = 0

    public init() throws(OverlayError) {
        do {
            let pipe = try Syscall.pipeToChild()
            defer { Syscall.release(pipe.read) }
            let child: Spawn.Child
            do { child = try Spawn.start([Self.helper], environment: Environment.current, input: pipe.read) } catch {
                Syscall.release(pipe.write)
                throw error
            }
            pid = child.pid
            output = child.output
            input = pipe.write
        } catch {
            throw OverlayError("cannot start \(Self.helper) (\(error))")
        }
    }

    deinit {
        Syscall.release(input)
        Syscall.release(output)
        try? Spawn.kill(group: pid, SIGTERM)
    }

    /// An update, as a line: the colour, the progress, each finger's x and y.
    public func draw(_ frame: FeedbackFrame) {
        var line = String(X11Overlay.colour(frame.lead.verdict), radix: 16) + " " + String(frame.lead.progress)
        for finger in frame.fingers { line += " \(finger.x) \(finger.y)" }
        line += "\n"
        let sent = line.utf8.withContiguousStorageIfAvailable { (try? Syscall.write(input, UnsafeRawBufferPointer($0))) ?? 0 } ?? 0
        if sent < line.utf8.count { dropped += 1 }
    }

    /// The helper's output is readable: its words so far (at most 4 KB), and whether it ended.
    public func read() -> (words: String, ended: Bool) {
        var chunk = [UInt8](repeating: 0, count: 1024)
        while true {
            let n: Int
            do { n = try chunk.withUnsafeMutableBytes { (b) throws(Errno) -> Int in try Syscall.read(output, into: b) } } catch .wouldBlock {
                return (String(decoding: words, as: UTF8.self), false)
            } catch {
                return (String(decoding: words, as: UTF8.self), true)
            }
            if n == 0 { return (String(decoding: words, as: UTF8.self), true) }
            if words.count < 4096 { words += chunk[0..<min(n, 4096 - words.count)] }
        }
    }
}
