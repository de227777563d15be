#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Input
import SystemIO
import SystemPackage
import TouchCore

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a touchscreen's events to an evemu file, until Ctrl-C.",
        discussion: """
            The file starts with the device's whole description (N:, I:, P:, B:, A: lines), \
            so that evemu-device can make a device like it, evemu-play can play it into \
            one, and `gestured replay FILE` replays it. Only whole frames are written: \
            Ctrl-C (SIGINT) or SIGTERM ends it cleanly, as does unplugging the device. \
            It only reads: a running service goes on (unless it isolates the panel, which \
            then reaches no other reader; `gestured devices` says so). The file is made \
            readable by you alone (every tap on an on-screen keyboard is in it), never \
            through a symbolic link, and never over a file that is not yours.
            """
    )

    /// Raw touches: an on-screen keyboard's taps can be read back from them.
    static let recordingPermissions: FilePermissions = [.ownerReadWrite]

    @Option(help: ArgumentHelp("The touchscreen's event node (default: the only touchscreen udev reports).", valueName: "NODE"))
    var device: String?

    @Argument(help: ArgumentHelp("The evemu file to write.", valueName: "FILE"))
    var file: String

    func run() throws {
        let node = try touchscreenNode(device)
        let panel = try openTouchscreen(node)
        let output: FileDescriptor
        do { output = try Files.create(file, permissions: Self.recordingPermissions) } catch {
            printError("error: \(file): cannot write it: \(error)")
            throw ExitCode.failure
        }
        var closed = false
        defer { if !closed { Syscall.release(output) } }
        // Ctrl-C from now on ends the recording through the loop, never halfway through a write.
        let signals = try SignalFD.create([SIGINT, SIGTERM])
        defer { Syscall.release(signals) }
        var recorder = FrameWriter(output: output, file: file)
        try recorder.write(Evemu.header(panel.evemuDevice, comment: ["Recorded by gestured record from \(node)"]))
        printError("recording \(node) ('\(printable(panel.description.name))') to \(file): Ctrl-C ends it")
        var end = "stopped"
        recording: while true {
            if try Syscall.waitReadable(panel.fd, signals)[1] {
                _ = try SignalFD.next(signals)
                break recording
            }
            var failure: Errno?
            let result = panel.read { event in
                guard failure == nil else { return }
                do throws(Errno) { try recorder.add(event) } catch { failure = error }
            }
            if let failure {
                printError("error: \(file): cannot write it: \(failure)")
                throw ExitCode.failure
            }
            switch result {
            case .drained: break
            case .resynced: printError("warning: the kernel dropped events (SYN_DROPPED); the recording holds the state resynced after it")
            case .removed:
                end = "the device went away"
                break recording
            }
        }
        closed = true
        do { try Syscall.close(output) } catch {
            printError("error: \(file): cannot finish writing it: \(error)")
            throw ExitCode.failure
        }
        printError("\(file): \(recorder.frames) frames, \(fixed(recorder.seconds, decimals: 1)) s (\(end))")
    }
}

/// The node named, or the only touchscreen udev reports.
/// The device at `node`, read by a command: its libevdev messages on stderr; an error
/// that says what to do when it cannot be opened.
func openTouchscreen(_ node: String) throws -> EvdevDevice {
    do { return try EvdevDevice(path: node) { printError("\(node): libevdev: \($0)") } } catch {
        printError("error: \(node): cannot open it: \(error)\(error == .permissionDenied ? " (run it as root or as a member of the 'input' group)" : "")")
        throw ExitCode.failure
    }
}

func touchscreenNode(_ named: String?) throws -> String {
    if let named { return named }
    let nodes: [String]
    do { nodes = try Udev.touchscreenNodes() } catch {
        printError("error: cannot list touchscreens through udev (\(error)): name one with --device")
        throw ExitCode.failure
    }
    guard nodes.count == 1 else {
        printError(nodes.isEmpty ? "error: udev reports no touchscreen: name a device with --device (see `gestured devices`)"
            : "error: several touchscreens (\(nodes.joined(separator: ", "))): name one with --device")
        throw ExitCode.failure
    }
    return nodes[0]
}
