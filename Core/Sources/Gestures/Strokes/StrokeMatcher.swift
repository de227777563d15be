import RealModule
import TouchCore

/// The shapes one arbiter's stroke recognizers tell apart, and the matching they share:
/// each finished stroke is compared with every template (Protractor, Li 2010: the angle
/// between the two as vectors, the stroke turned by at most `maxRotationDegrees` to fit),
/// and each shape scores its closest template. Similarity is 1 − angle / 90°: 1 for the
/// same shape, 0.9 to 0.98 between one person's strokes of a shape, 0.75 at 22.5°.
/// Built-in shapes come with templates drawn by many people (`BuiltInStrokes`), among
/// them the shapes checkmarks and chevrons are confused with; learned shapes come from
/// the configuration. Matching allocates nothing, and a stroke is matched once however
/// many recognizers ask.
public final class StrokeMatcher {
    /// How far a stroke may be turned to fit a template: more, and orientation stops
    /// telling a chevron-up from a chevron-right.
    public static let maxRotationDegrees = 20.0

    public struct Shape: Equatable, Sendable {
        public enum Kind: Sendable { case builtIn, contrast, learned }
        public var name: String
        public var kind: Kind

        /// How explanations name it.
        public var description: String {
            switch kind {
            case .builtIn: "a \(name)"
            case .contrast: "a \(name.replacingUnderscores)"
            case .learned: "learned '\(name)'"
            }
        }
    }

    public private(set) var shapes: [Shape] = []
    private var templateShape: [Int] = []
    private var templatePerson: [Int] = []
    private var persons: [String] = []
    /// The templates' vectors end to end: the built-in ones (shared by every matcher,
    /// never copied), then the learned ones.
    private let builtInVectors: [Float]
    private let learnedVectors: [Float]
    /// The learned templates' turning angles (`PointCloud.turning`), and the candidate's.
    private let learnedTurns: [Float]
    private var candidateTurns = [Float](repeating: 0, count: StrokeTemplate.pointCount)
    /// Learned shapes are told apart by their point clouds (`PointCloud`): each one's
    /// distance to the last stroke matched (its closest template), and the spread of its
    /// own templates, which sets how far a stroke may be and still be it.
    private var cloud: [Float] = []
    private var spread: [Float] = []
    private var taken = [Bool](repeating: false, count: StrokeTemplate.pointCount)
    /// A learned shape's spread is kept within these: three examples say little of how
    /// far a person's next stroke may fall (one says nothing: the middle).
    public static let spreadRange: ClosedRange<Float> = 0.9...1.8
    /// For held-out evaluation: templates drawn by this person are left out.
    public var leftOutPerson: String? {
        didSet { leftOut = leftOutPerson.flatMap { persons.firstIndex(of: $0) } ?? -1; matched = nil }
    }
    private var leftOut = -1
    public var leavesOutAny: Bool { leftOut >= 0 }

    private var resampled = [Point](repeating: .zero, count: StrokeTemplate.pointCount)
    /// The stroke as a template (x0, y0, x1, y1, …), and turned a quarter (y0, −x0, …):
    /// a template's dot products with the two are Protractor's a and b.
    private var candidate = [Float](repeating: 0, count: 2 * StrokeTemplate.pointCount)
    private var turned = [Float](repeating: 0, count: 2 * StrokeTemplate.pointCount)
    /// Each shape's best cosine to the last stroke matched (`noTemplate` when it has none).
    private var best: [Float] = []
    private static let noTemplate: Float = -2
    /// Which stroke a recognizer judges: its touch sequence, finger and length, so that
    /// recognizers following the same finger share one matching.
    struct StrokeKey: Equatable {
        var sequence: Int
        var touch: Int
        var count: Int
    }

    private var matched: StrokeKey?
    /// The gate's measures of the last stroke measured, and room for its path.
    private var measured: (key: StrokeKey, shape: StrokeShape?)?
    private var gatePath = [Point](repeating: .zero, count: StrokeShape.resampledCount)
    private static let cosLimit = Float(cosDegrees(maxRotationDegrees))
    private static let sinLimit = Float(sinDegrees(maxRotationDegrees))
    private static let tanLimit = Float(sinDegrees(maxRotationDegrees) / cosDegrees(maxRotationDegrees))

    /// The cosine of the angle between two vectors, from their dot product `a` and cross
    /// product `b`, at the best rotation (or at the limit when that is past it).
    @inline(__always)
    private static func cosine(a: Float, b: Float) -> Float {
        a > 0 && abs(b) <= a * tanLimit ? (a * a + b * b).squareRoot() : a * cosLimit + abs(b) * sinLimit
    }

    /// How similar two templates are, as `rank` scores them.
    public static func similarity(_ t: StrokeTemplate, _ u: StrokeTemplate) -> Double {
        var a: Float = 0, b: Float = 0
        for i in Swift.stride(from: 0, to: t.vector.count, by: 2) {
            a += t.vector[i] * u.vector[i] + t.vector[i + 1] * u.vector[i + 1]
            b += t.vector[i] * u.vector[i + 1] - t.vector[i + 1] * u.vector[i]
        }
        return angular(cosine(a: a, b: b))
    }

    /// `builtIn`: templates of built-in shapes, `bound` those the configuration has
    /// recognizers for (the others only keep those from firing on what they resemble);
    /// `learned`: the learned gestures' templates; `spreads`: each learned shape's, when
    /// known (found here otherwise).
    public init(builtIn: StrokeTemplateSet, bound: Set<String>, learned: [StrokeTemplate], spreads: [String: Double] = [:]) {
        shapes = builtIn.shapeNames.map { Shape(name: $0, kind: bound.contains($0) ? .builtIn : .contrast) }
        persons = builtIn.personNames
        templateShape = builtIn.shapeOf
        templatePerson = builtIn.personOf
        builtInVectors = builtIn.vectors
        var learnedVectors: [Float] = []
        for t in learned {
            templateShape.append(StrokeTemplateSet.number(Shape(name: t.shape, kind: .learned), in: &shapes))
            templatePerson.append(StrokeTemplateSet.number(t.person, in: &persons))
            learnedVectors += t.vector
        }
        self.learnedVectors = learnedVectors
        learnedTurns = PointCloud.turning(learnedVectors)
        best = [Float](repeating: Self.noTemplate, count: shapes.count)
        cloud = [Float](repeating: .infinity, count: shapes.count)
        let middle = Double(Self.spreadRange.lowerBound + Self.spreadRange.upperBound) / 2
        spread = shapes.map { shape in
            guard shape.kind == .learned else { return Float(middle) }
            let found = spreads[shape.name] ?? Self.spread(of: learned.filter { $0.shape == shape.name }) ?? middle
            return min(max(Float(found), Self.spreadRange.lowerBound), Self.spreadRange.upperBound)
        }
    }

    /// The spread of one shape's examples: how far the farthest lies from the nearest
    /// other (before `spreadRange` bounds it); nil for fewer than two.
    public static func spread(of examples: [StrokeTemplate]) -> Double? {
        guard examples.count >= 2 else { return nil }
        var taken = [Bool](repeating: false, count: StrokeTemplate.pointCount)
        let turns = examples.map { PointCloud.turning($0.vector) }
        return taken.withUnsafeMutableBufferPointer { taken in
            examples.indices.map { i in
                examples.indices.filter { $0 != i }.map { j in
                    examples[i].vector.withUnsafeBufferPointer { a in
                        examples[j].vector.withUnsafeBufferPointer { b in
                            turns[i].withUnsafeBufferPointer { aTurns in
                                turns[j].withUnsafeBufferPointer { bTurns in
                                    Double(PointCloud.distance(a.baseAddress!, aTurns.baseAddress!, b.baseAddress!, bTurns.baseAddress!,
                                                               taken: taken.baseAddress!))
                                }
                            }
                        }
                    }
                }.min()!
            }.max()
        }
    }

    /// The matcher for a configuration's gestures and their sequences' steps (a checkmark
    /// then a tap); nil when none matches strokes.
    public convenience init?(for gestures: [GestureSpec]) {
        let specs = gestures + gestures.flatMap(\.earlierSteps)
        guard specs.contains(where: { $0.type == .checkmark || $0.type == .chevron || $0.type == .stroke }) else { return nil }
        self.init(builtIn: BuiltInStrokes.templates, bound: Set(specs.compactMap(\.builtInShape)),
                  learned: specs.filter { $0.type == .stroke }.flatMap { spec in
                      spec.templates.map { StrokeTemplate(shape: spec.name, person: "", vector: $0.vector) }
                  },
                  spreads: Dictionary(specs.compactMap { spec in spec.templateSpread.map { (spec.name, $0) } }, uniquingKeysWith: { a, _ in a }))
    }

    public func index(of name: String, kind: Shape.Kind) -> Int? { shapes.firstIndex(of: Shape(name: name, kind: kind)) }

    /// Scores every shape against `stroke` (once per stroke), then returns the closest of
    /// the shapes `among` accepts and the runner-up; nil when none has a template.
    func rank(_ stroke: Stroke, _ key: StrokeKey, among: (Shape) -> Bool) -> (closest: Int, runnerUp: Int?)? {
        match(stroke, key)
        return twoBest(where: { best[$0] > Self.noTemplate && among(shapes[$0]) }, isBetter: { best[$0] > best[$1] })
    }

    /// The best of the shapes `included` by `isBetter`, and the runner-up; nil for none.
    private func twoBest(where included: (Int) -> Bool, isBetter: (Int, Int) -> Bool) -> (closest: Int, runnerUp: Int?)? {
        var first: Int?, second: Int?
        for i in shapes.indices where included(i) {
            if first == nil || isBetter(i, first!) {
                second = first
                first = i
            } else if second == nil || isBetter(i, second!) {
                second = i
            }
        }
        return first.map { ($0, second) }
    }

    /// The similarity of the last stroke matched to a shape's closest template (-1 to 1).
    func similarity(_ shape: Int) -> Double { Self.angular(best[shape]) }

    /// The learned shape whose templates `stroke` is closest to as a point cloud, and the
    /// runner-up; nil when no shape is learned.
    func closestLearned(strokeFor stroke: Stroke, _ key: StrokeKey) -> (closest: Int, runnerUp: Int?)? {
        match(stroke, key)
        return twoBest(where: { shapes[$0].kind == .learned && cloud[$0].isFinite }, isBetter: { cloud[$0] < cloud[$1] })
    }

    /// The learned shape a template (as a stroke) is closest to, and its similarity to
    /// it: what a stroke drawn as that template would be taken for.
    public func closestLearned(to template: StrokeTemplate, key: Int) -> (shape: Shape, similarity: Double)? {
        let path = Swift.stride(from: 0, to: template.vector.count, by: 2).map {
            Point(x: Double(template.vector[$0]) * 100, y: Double(template.vector[$0 + 1]) * 100)
        }
        guard let (closest, _) = closestLearned(strokeFor: Stroke(path), StrokeKey(sequence: -1, touch: key, count: path.count)) else { return nil }
        return (shapes[closest], learnedSimilarity(closest))
    }

    /// A learned shape's similarity to the last stroke matched, from their point-cloud
    /// distance d and the shape's spread s: 1 − d / 12s, so 0.75 is 3 spreads away (0 to 1).
    func learnedSimilarity(_ shape: Int) -> Double {
        guard cloud[shape].isFinite else { return 0 }
        return max(0, 1 - Double(cloud[shape] / (12 * spread[shape])))
    }

    private static func angular(_ cosine: Float) -> Double {
        1 - Double.acos(min(1, max(-1, Double(cosine)))) * 2 / Double.pi
    }

    /// The gate's measures of `stroke` (`StrokeShape`), taken once however many
    /// recognizers ask; nil for a stroke with fewer than two distinct points.
    func shape(of stroke: Stroke, _ key: StrokeKey) -> StrokeShape? {
        if let m = measured, m.key == key { return m.shape }
        let shape = StrokeShape(stroke, resampled: &gatePath)
        measured = (key, shape)
        return shape
    }

    private func match(_ stroke: Stroke, _ key: StrokeKey) {
        guard matched != key else { return }
        matched = key
        let points = stroke.points
        for i in best.indices { best[i] = Self.noTemplate }
        for i in cloud.indices { cloud[i] = .infinity }
        guard StrokeShape.resample(points, into: &resampled) != nil else { return }
        StrokeTemplate.normalize(resampled, into: &candidate)
        candidate.withUnsafeBufferPointer { c in
            candidateTurns.withUnsafeMutableBufferPointer { PointCloud.turning(c.baseAddress!, into: $0.baseAddress!) }
        }
        for i in Swift.stride(from: 0, to: candidate.count, by: 2) {
            turned[i] = candidate[i + 1]
            turned[i + 1] = -candidate[i]
        }
        let builtInCount = builtInVectors.count / candidate.count
        scan(builtInVectors, templates: 0..<builtInCount)
        scan(learnedVectors, templates: builtInCount..<templateShape.count)
        measureClouds(from: builtInCount)
    }

    /// Each learned shape's point-cloud distance to the candidate (its closest template).
    private func measureClouds(from builtInCount: Int) {
        let size = candidate.count, points = StrokeTemplate.pointCount
        let shapeOf = templateShape, personOf = templatePerson, leftOut = leftOut
        candidate.withUnsafeBufferPointer { c in
            candidateTurns.withUnsafeBufferPointer { cTurns in
                learnedVectors.withUnsafeBufferPointer { v in
                    learnedTurns.withUnsafeBufferPointer { vTurns in
                        taken.withUnsafeMutableBufferPointer { taken in
                            cloud.withUnsafeMutableBufferPointer { cloud in
                                for t in 0..<(v.count / size) where personOf[builtInCount + t] != leftOut {
                                    let shape = shapeOf[builtInCount + t]
                                    let d = PointCloud.distance(c.baseAddress!, cTurns.baseAddress!, v.baseAddress! + t * size,
                                                                vTurns.baseAddress! + t * points, taken: taken.baseAddress!, stopAt: cloud[shape])
                                    if d < cloud[shape] { cloud[shape] = d }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Scores `templates`, whose vectors are `vectors` end to end, against the candidate.
    private func scan(_ vectors: [Float], templates: Range<Int>) {
        // 64 numbers a template: four 16-wide multiply-adds for each product. Locals and
        // buffers only in the loop: a class's properties are checked on every access.
        let lanes = 16, chunks = candidate.count / lanes, stride = candidate.count * MemoryLayout<Float>.stride
        let shapeOf = templateShape, personOf = templatePerson, leftOut = leftOut
        candidate.withUnsafeBytes { g in
            turned.withUnsafeBytes { h in
                vectors.withUnsafeBytes { v in
                    best.withUnsafeMutableBufferPointer { best in
                        for t in templates where personOf[t] != leftOut {
                            var a = SIMD16<Float>(), b = SIMD16<Float>()
                            for c in 0..<chunks {
                                let offset = c * lanes * MemoryLayout<Float>.stride
                                let x = v.loadUnaligned(fromByteOffset: (t - templates.lowerBound) * stride + offset, as: SIMD16<Float>.self)
                                a += x * g.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
                                b += x * h.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
                            }
                            let cosine = Self.cosine(a: a.sum(), b: b.sum())
                            if cosine > best[shapeOf[t]] { best[shapeOf[t]] = cosine }
                        }
                    }
                }
            }
        }
    }
}

extension String {
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}

extension GestureSpec {
    /// The built-in shape a checkmark or chevron recognizer looks for, as its templates name it.
    var builtInShape: String? {
        switch type {
        case .checkmark: "checkmark"
        case .chevron: "chevron-" + (direction ?? .right).rawValue
        default: nil
        }
    }
}
