import SystemIO
import SystemPackage
import TouchCore

/// Where `gestured calibrate` shows its targets: drawn on a terminal that fills the
/// screen (a + in the cell nearest each place, on the alternate screen, restored after),
/// or, on no terminal, said as fractions of the screen, one line each.
struct TargetScreen {
    let targets: [CalibrationTarget]
    private let drawn: Bool
    private let size: (rows: Int, columns: Int)

    init() {
        if isTerminal(.standardOutput), let size = terminalSize(.standardOutput), size.rows >= 8, size.columns >= 16 {
            targets = CalibrationTarget.drawn(rows: size.rows, columns: size.columns)
            drawn = true
            self.size = size
        } else {
            targets = CalibrationTarget.said
            drawn = false
            size = (0, 0)
        }
    }

    /// Shows each target in turn and takes `touch`'s answer for it.
    func show(_ touch: (CalibrationTarget, Int) throws -> Point) throws -> [Point] {
        if drawn { write("\u{1b}[?1049h\u{1b}[?25l") }
        defer { if drawn { write("\u{1b}[2J\u{1b}[?25h\u{1b}[?1049l") } }
        var touches: [Point] = []
        for (index, target) in targets.enumerated() {
            if let cell = target.cell {
                write("\u{1b}[2J\u{1b}[\(cell.row);\(cell.column)H+")
                say("Touch the + with one finger (\(index + 1) of \(targets.count)). Ctrl-C stops, writing nothing.")
            } else {
                say("target \(index + 1) of \(targets.count): touch x=\(fixed(target.point.x, decimals: 4)) y=\(fixed(target.point.y, decimals: 4)) of the screen")
            }
            touches.append(try touch(target, index))
        }
        return touches
    }

    /// A line for the person: in the middle of a drawn screen, or a line of output.
    func say(_ text: String) {
        guard drawn else { return write(text + "\n") }
        let row = size.rows / 2, column = max(1, (size.columns - text.count) / 2 + 1)
        write("\u{1b}[\(row);1H\u{1b}[2K\u{1b}[\(row);\(column)H\(text)")
    }

    /// Unbuffered: a test reading the targets from a pipe sees each as it is asked for.
    private func write(_ text: String) {
        _ = try? FileDescriptor.standardOutput.writeAll(text.utf8)
    }
}
