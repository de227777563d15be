/// Where `gestured calibrate` asks for touches: near the four corners, an eighth of the
/// screen in (xinput_calibrator's places), far enough apart to say the matrix well and in
/// from the edges, where panels are least linear.
public struct CalibrationTarget: Equatable, Sendable {
    /// Normalized over the screen, as libinput's matrix maps to.
    public var point: Point
    /// The terminal's cell it is drawn in (1-based, as ANSI cursor addressing counts);
    /// nil when it is only said.
    public var cell: (row: Int, column: Int)?

    public static func == (a: CalibrationTarget, b: CalibrationTarget) -> Bool {
        a.point == b.point && a.cell?.row == b.cell?.row && a.cell?.column == b.cell?.column
    }

    public static let places = [Point(x: 0.125, y: 0.125), Point(x: 0.875, y: 0.125), Point(x: 0.875, y: 0.875), Point(x: 0.125, y: 0.875)]

    /// The targets as said, not drawn (no terminal to draw on).
    public static let said = places.map { CalibrationTarget(point: $0, cell: nil) }

    /// The targets drawn on a terminal of `rows` × `columns` cells filling the screen: each
    /// in the cell nearest its place, its point that cell's centre (what a finger aims at).
    public static func drawn(rows: Int, columns: Int) -> [CalibrationTarget] {
        places.map { place in
            let column = min(columns, max(1, Int((place.x * Double(columns)).rounded(.down)) + 1))
            let row = min(rows, max(1, Int((place.y * Double(rows)).rounded(.down)) + 1))
            return CalibrationTarget(point: Point(x: (Double(column) - 0.5) / Double(columns), y: (Double(row) - 0.5) / Double(rows)),
                                     cell: (row, column))
        }
    }

    public init(point: Point, cell: (row: Int, column: Int)?) {
        self.point = point
        self.cell = cell
    }
}
