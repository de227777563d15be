/// libinput's calibration matrix (udev's LIBINPUT_CALIBRATION_MATRIX, "a b c d e f"): a
/// touch at (x, y), normalized over the device's axes, is on the screen at
/// (a x + b y + c, d x + e y + f), also normalized.
public struct CalibrationMatrix: Equatable, Sendable, CustomStringConvertible {
    public var a, b, c, d, e, f: Double

    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    public static let identity = CalibrationMatrix(1, 0, 0, 0, 1, 0)

    /// udev's value: six finite numbers, apart by blanks; nil otherwise.
    public init?(udev text: String) {
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
        guard numbers.count == 6, numbers.allSatisfy(\.isFinite),
              text.split(whereSeparator: { $0 == " " || $0 == "\t" }).count == 6 else { return nil }
        self.init(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
    }

    /// As udev's property is written, six decimals each.
    public var description: String {
        [a, b, c, d, e, f].map { fixed($0, decimals: 6) }.joined(separator: " ")
    }

    public func apply(_ p: Point) -> Point {
        Point(x: a * p.x + b * p.y + c, y: d * p.x + e * p.y + f)
    }

    /// How much it scales areas: near 0 it folds the panel onto a line.
    public var determinant: Double { a * e - b * d }

    /// The matrix that undoes it; nil when it folds the panel (no inverse).
    public var inverse: CalibrationMatrix? {
        let det = determinant
        guard det.isFinite, abs(det) > 1e-9 else { return nil }
        let ia = e / det, ib = -b / det, id = -d / det, ie = a / det
        return CalibrationMatrix(ia, ib, -(ia * c + ib * f), id, ie, -(id * c + ie * f))
    }
}

/// Why touches on targets give no calibration, with what to do.
public enum CalibrationRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer than three targets, or touches and targets not in pairs.
    case tooFewTouches(Int)
    /// The touches lie on one line (or one point): they say nothing of one direction.
    case touchesInALine
    /// The matrix would shrink or stretch the panel past what a mounted panel does.
    case implausibleScale(Double)
    /// A touch lies this far (a fraction of the screen) from where the matrix puts its target.
    case touchesDisagree(worst: Double)

    public var description: String {
        switch self {
        case .tooFewTouches(let count):
            "\(count) touch\(count == 1 ? "" : "es") on targets; it takes one on each of at least three targets"
        case .touchesInALine:
            "the touches lie on one line: touch each target where it is drawn, not one place"
        case .implausibleScale(let scale):
            "the touches would scale the panel by \(fixed(scale, decimals: 2)) (a panel mounted on its screen is between 0.25 and 4): touch each target where it is drawn"
        case .touchesDisagree(let worst):
            "a touch lies \(fixed(worst * 100, decimals: 1)) % of the screen from where the others put its target: touch each target again, at its centre"
        }
    }
}

extension CalibrationMatrix {
    /// Farthest a touch may lie from its target under the solved matrix: a finger's width
    /// on a small panel.
    public static let mostDisagreement = 0.03

    /// The matrix that puts each touch (normalized over the device's axes, before any
    /// calibration) on its target (normalized over the screen), by least squares over at
    /// least three targets; refused when the touches are degenerate or disagree.
    public static func solving(targets: [Point], touches: [Point]) throws(CalibrationRefusal) -> CalibrationMatrix {
        guard targets.count == touches.count, touches.count >= 3 else {
            throw .tooFewTouches(min(targets.count, touches.count))
        }
        // The normal equations MᵀM w = Mᵀ t, M's rows (x, y, 1): one system for each
        // screen axis, the same 3 × 3 matrix.
        var m = [[Double]](repeating: [0, 0, 0], count: 3)
        var rx = [0.0, 0.0, 0.0], ry = [0.0, 0.0, 0.0]
        for (touch, target) in zip(touches, targets) {
            let row = [touch.x, touch.y, 1]
            for i in 0..<3 {
                for j in 0..<3 { m[i][j] += row[i] * row[j] }
                rx[i] += row[i] * target.x
                ry[i] += row[i] * target.y
            }
        }
        // Centred, the spread of the touches: collinear ones leave it without area.
        let n = Double(touches.count)
        let sxx = m[0][0] - m[0][2] * m[0][2] / n, syy = m[1][1] - m[1][2] * m[1][2] / n
        let sxy = m[0][1] - m[0][2] * m[1][2] / n
        let spread = sxx * syy - sxy * sxy
        guard spread.isFinite, spread > 1e-6 * max(sxx * syy, 1e-12), sxx > 1e-8, syy > 1e-8 else { throw .touchesInALine }
        guard let x = solve(m, rx), let y = solve(m, ry) else { throw .touchesInALine }
        let matrix = CalibrationMatrix(x[0], x[1], x[2], y[0], y[1], y[2])
        let scale = abs(matrix.determinant)
        guard scale.isFinite, scale >= 0.0625, scale <= 16 else { throw .implausibleScale(scale.squareRoot()) }
        let worst = zip(touches, targets).map { matrix.apply($0).distance(to: $1) }.max() ?? 0
        guard worst <= mostDisagreement else { throw .touchesDisagree(worst: worst) }
        return matrix
    }

    /// A 3 × 3 system by Cramer's rule; nil when singular.
    private static func solve(_ m: [[Double]], _ r: [Double]) -> [Double]? {
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let d = det(m)
        guard d.isFinite, abs(d) > 1e-15 else { return nil }
        return (0..<3).map { column in
            var replaced = m
            for row in 0..<3 { replaced[row][column] = r[row] }
            return det(replaced) / d
        }
    }
}
