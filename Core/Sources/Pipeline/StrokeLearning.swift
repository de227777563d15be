import Config
import Gestures
import TouchCore

/// What `gestured learn` does: reads the stroke of a recording as the stroke recognizers
/// see it, and keeps the examples that best stand for many.
public enum StrokeLearning {
    /// The first finger's path of the recording's first touch sequence; nil when it has
    /// fewer than two points or the device is no touchscreen.
    public static func stroke(of recording: Recording, shape: String, person: String = "") -> StrokeTemplate? {
        guard let pipeline = try? TouchscreenPipeline(recording.description, config: Configuration()) else { return nil }
        var collector = StrokeCollector()
        var path: [Point]?
        for event in recording.events where path == nil {
            pipeline.step(.event(event)) { step in
                if path == nil, let frame = step.frame { path = collector.add(frame, geometry: pipeline.geometry) }
            }
        }
        return path.flatMap { StrokeTemplate(shape: shape, person: person, path: $0) }
    }

    /// Where a new learned shape and those of a configuration cannot be told apart: each
    /// example of one that would be taken for another, as a line to say before the shape
    /// is used; none when every example is closest to its own shape.
    public static func confusions(of name: String, examples: [StrokeTemplate], minSimilarity: Double,
                                  beside learned: [GestureSpec]) -> [String] {
        let others = learned.filter { $0.type == .stroke && $0.name != name }
        guard !others.isEmpty else { return [] }
        var new = GestureSpec(name: name, type: .stroke)
        new.templates = examples
        new.minSimilarity = minSimilarity
        let specs = others + [new]
        // Each template its own "person", so that each is judged with itself left out.
        var templates: [StrokeTemplate] = []
        for spec in specs {
            for (i, t) in spec.templates.enumerated() { templates.append(StrokeTemplate(shape: spec.name, person: "\(spec.name)#\(i)", vector: t.vector)) }
        }
        let matcher = StrokeMatcher(builtIn: StrokeTemplateSet(), bound: [], learned: templates)
        var said: [String] = []
        for (n, template) in templates.enumerated() {
            matcher.leftOutPerson = template.person
            guard let (shape, similarity) = matcher.closestLearned(to: template, key: n), shape.name != template.shape else { continue }
            let threshold = specs.first { $0.name == shape.name }?.minSimilarity ?? 1
            let how = similarity >= threshold ? "would fire" : "is closer than to the other examples of its own to"
            said.append("an example of '\(template.shape)' \(how) learned '\(shape.name)' (similarity \(fixed(similarity, decimals: 2)))")
        }
        return said
    }

    /// Up to `keep` of `examples`, chosen greedily so that every example is as similar as
    /// can be to one kept (facility location): the most typical first, then those that
    /// stand for the ways of drawing it the kept ones do not.
    public static func representatives(_ examples: [StrokeTemplate], keep: Int) -> [StrokeTemplate] {
        guard examples.count > keep else { return examples }
        let similarity = examples.map { t in examples.map { StrokeMatcher.similarity(t, $0) } }
        var closest = [Double](repeating: -2, count: examples.count)
        var kept: [Int] = []
        while kept.count < keep {
            let gains = similarity.indices.map { i in zip(similarity[i], closest).reduce(0) { $0 + max($1.0, $1.1) } }
            let best = gains.indices.filter { !kept.contains($0) }.max { gains[$0] < gains[$1] }!
            kept.append(best)
            closest = zip(closest, similarity[best]).map(max)
        }
        return kept.sorted().map { examples[$0] }
    }
}
