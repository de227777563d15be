import TouchCore

/// Templates end to end, as the matcher reads them. Copies share their storage until one
/// of them changes, so every touchscreen's matcher reads the same built-in templates.
/// Shapes and people are numbered as templates arrive, so that a matcher is made from a
/// set without comparing names template by template.
public struct StrokeTemplateSet: Sendable {
    public private(set) var vectors: [Float] = []
    /// Each template's shape, an index into `shapeNames`, and its person, into `personNames`.
    public private(set) var shapeOf: [Int] = []
    public private(set) var personOf: [Int] = []
    public private(set) var shapeNames: [String] = []
    public private(set) var personNames: [String] = []

    public init(_ templates: [StrokeTemplate] = []) {
        for t in templates { append(t) }
    }

    /// Reads one template a line, "person shape hex" (BuiltInStrokes), byte by byte: it
    /// runs as each process starts, and splitting 1,640 lines as characters took longer
    /// than everything else a daemon does before it is ready. Malformed lines are skipped.
    init(lines text: String) {
        for line in text.utf8.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "))
            guard fields.count == 3, StrokeTemplate.decode(fields[2], appendingTo: &vectors) else { continue }
            shapeOf.append(Self.number(String(Substring(fields[1])), in: &shapeNames))
            personOf.append(Self.number(String(Substring(fields[0])), in: &personNames))
        }
    }

    public var count: Int { shapeOf.count }

    public mutating func append(_ template: StrokeTemplate) {
        vectors += template.vector
        shapeOf.append(Self.number(template.shape, in: &shapeNames))
        personOf.append(Self.number(template.person, in: &personNames))
    }

    /// `name`'s index in `names`, appended if it is not there yet.
    static func number<Name: Equatable>(_ name: Name, in names: inout [Name]) -> Int {
        if let index = names.lastIndex(of: name) { return index }
        names.append(name)
        return names.count - 1
    }
}
