#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Input
import SystemIO
import SystemPackage
import TouchCore

/// Writes events a frame at a time, so that a recording stopped anywhere ends with a
/// whole frame; times count from the first event.
struct FrameWriter {
    let output: FileDescriptor
    let file: String
    private var frame = ""
    private var start: Timestamp?
    private var last: Timestamp?
    private(set) var frames = 0

    init(output: FileDescriptor, file: String) {
        self.output = output
        self.file = file
    }

    var seconds: Double { start.flatMap { s in last.map { $0.milliseconds(since: s) / 1000 } } ?? 0 }

    func write(_ text: String) throws(Errno) { try Files.write(text, to: output) }

    mutating func add(_ event: InputEvent) throws(Errno) {
        let start = self.start ?? event.time
        self.start = start
        frame += Evemu.line(for: event, since: start)
        guard event.type == EventType.syn, event.code == SynCode.report else { return }
        try write(frame)
        frame = ""
        frames += 1
        last = event.time
    }
}
