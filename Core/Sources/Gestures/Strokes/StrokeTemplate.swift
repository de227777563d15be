import TouchCore

/// A stroke as template matching sees it (Protractor, Li 2010): resampled to 32 evenly
/// spaced points, centred on their centroid and scaled to unit length as one vector of 64
/// numbers, so where it was drawn and how big do not matter. Orientation does, up to
/// `StrokeMatcher.maxRotationDegrees`: a chevron turned a quarter is another chevron.
public struct StrokeTemplate: Equatable, Codable, Sendable {
    public static let pointCount = 32

    /// The shape it is an example of: a built-in shape, or a learned gesture's name.
    public var shape: String
    /// Who drew it, for held-out evaluation ("" when unknown).
    public var person: String
    /// x0, y0, x1, y1, … (y down), of unit length.
    public private(set) var vector: [Float]

    /// Nil for a path with fewer than two distinct points.
    public init?(shape: String, person: String = "", path: [Point]) {
        var resampled = [Point](repeating: .zero, count: Self.pointCount)
        guard StrokeShape.resample(path, into: &resampled) != nil else { return nil }
        var vector = [Float](repeating: 0, count: 2 * Self.pointCount)
        Self.normalize(resampled, into: &vector)
        self.init(shape: shape, person: person, vector: vector)
    }

    public init(shape: String, person: String, vector: [Float]) {
        self.shape = shape
        self.person = person
        self.vector = vector
    }

    /// Centres `points` on their centroid and scales them to unit length, into `out`.
    static func normalize(_ points: [Point], into out: inout [Float]) {
        var cx = 0.0, cy = 0.0
        for p in points { cx += p.x; cy += p.y }
        cx /= Double(points.count); cy /= Double(points.count)
        var norm = 0.0
        for p in points { norm += (p.x - cx) * (p.x - cx) + (p.y - cy) * (p.y - cy) }
        let scale = norm > 0 ? 1 / norm.squareRoot() : 0
        for (i, p) in points.enumerated() {
            out[2 * i] = Float((p.x - cx) * scale)
            out[2 * i + 1] = Float((p.y - cy) * scale)
        }
    }

    /// The configuration's text form: 128 hex digits, the 64 numbers as signed bytes
    /// scaled so the largest is ±127.
    public var text: String {
        let largest = vector.map(abs).max() ?? 0
        let scale = largest > 0 ? 127 / largest : 0
        let digits = Array("0123456789abcdef")
        var text = ""
        for value in vector {
            let byte = UInt8(bitPattern: Int8(clamping: Int(saturating: Double(value * scale).rounded())))
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return text
    }

    /// Reads `text`; nil unless it is 128 hex digits of a stroke that moved.
    public init?(shape: String, person: String = "", text: Substring) {
        var vector = [Float]()
        guard Self.decode(text.utf8, appendingTo: &vector) else { return nil }
        self.init(shape: shape, person: person, vector: vector)
    }

    /// Appends the unit vector `text` (the configuration's form) holds to `vectors`; false,
    /// with nothing appended, unless it is 128 hex digits of a stroke that moved.
    static func decode(_ text: some Collection<UInt8>, appendingTo vectors: inout [Float]) -> Bool {
        guard text.count == 4 * pointCount else { return false }
        let start = vectors.count
        var high: UInt8?
        var norm: Float = 0
        for byte in text {
            guard let nibble = hexValue(byte) else {
                vectors.removeSubrange(start...)
                return false
            }
            if let h = high {
                let value = Float(Int8(bitPattern: h << 4 | nibble))
                vectors.append(value)
                norm += value * value
                high = nil
            } else {
                high = nibble
            }
        }
        guard norm > 0 else {
            vectors.removeSubrange(start...)
            return false
        }
        let scale = 1 / norm.squareRoot()
        for i in start..<vectors.count { vectors[i] *= scale }
        return true
    }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
