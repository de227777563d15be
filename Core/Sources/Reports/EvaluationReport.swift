import TouchCore

/// Prints an evaluation: a confusion table with recall and precision (text), or one JSON
/// object per expected label (jsonl) for scripts that check the figures.
extension Evaluation {
    public func report(format: OutputFormat, gestureNames: [String]) -> [String] {
        let fired = gestureNames + [Self.noGesture]
        let expected = labels.filter { total($0) > 0 }
        switch format {
        case .jsonl:
            return expected.map { label in
                var json = JSONLine()
                json.add("label", label)
                json.add("total", total(label))
                if let recall = recall(label) { json.add("recall", recall, decimals: 4) }
                if let precision = precision(label) { json.add("precision", precision, decimals: 4) }
                for name in fired { json.add("fired:" + name, count(label, fired: name)) }
                return json.line
            }
        case .text:
            let first = max(16, (expected + ["precision"]).map(\.count).max() ?? 0)
            let widths = fired.map { max($0.count, 6) }
            func row(_ title: String, _ cells: [String], _ tail: String) -> String {
                var line = title.padding(first)
                for (cell, width) in zip(cells, widths) { line += "  " + cell.padded(width) }
                return line + tail
            }
            var lines = [row("expected \\ fired", fired, "   total  recall")]
            for label in expected {
                let cells = fired.map { String(count(label, fired: $0)) }
                lines.append(row(label, cells, "  " + String(total(label)).padded(6) + "  " + percent(recall(label))))
            }
            lines.append(row("precision", fired.map { percent(precision($0)) }, ""))
            return lines
        }
    }
}

extension String {
    /// Left-aligned in `width` columns.
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
    /// Right-aligned in `width` columns.
    func padded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

extension EvaluationRun {
    /// One row a person (or dataset): each gesture's recall and how often any gesture
    /// fired on a `none` recording, then the worst of each column; jsonl gives each
    /// group's full confusion rows, tagged with the group.
    public func report(by grouping: EvaluationGrouping, format: OutputFormat, gestureNames: [String]) -> [String] {
        let groups = grouping == .person ? byPerson : byDataset
        switch format {
        case .jsonl:
            return groups.flatMap { group in
                group.evaluation.report(format: .jsonl, gestureNames: gestureNames).map {
                    var json = JSONLine()
                    json.add(grouping.rawValue, group.name)
                    return json.line.dropLast() + "," + $0.dropFirst()
                }
            }
        case .text:
            let labels = gestureNames.filter { all.total($0) > 0 }
            let first = max(16, groups.map(\.name.count).max() ?? 0)
            let titles = labels + ["none fired"]
            func row(_ title: String, _ count: String, _ cells: [String]) -> String {
                var line = title + String(repeating: " ", count: max(0, first - title.count)) + "  " + count.padded(6)
                for (cell, width) in zip(cells, titles.map { max($0.count, 6) }) { line += "  " + cell.padded(width) }
                return line
            }
            func figures(_ e: Evaluation) -> [Double?] {
                labels.map { e.recall($0) } + [e.falseFiring]
            }
            var lines = [row(grouping.rawValue, "count", titles)]
            var worst = [Double?](repeating: nil, count: titles.count)
            for group in groups {
                let values = figures(group.evaluation)
                for (i, v) in values.enumerated() {
                    guard let v else { continue }
                    let isFalseFiring = i == labels.count
                    worst[i] = worst[i].map { isFalseFiring ? max($0, v) : min($0, v) } ?? v
                }
                lines.append(row(group.name, String(group.evaluation.labels.reduce(0) { $0 + group.evaluation.total($1) }),
                                 values.map(percent)))
            }
            lines.append(row("worst", "", worst.map(percent)))
            return lines
        }
    }
}

extension Evaluation {
    /// Of the `none` recordings, the share where some gesture fired.
    public var falseFiring: Double? {
        let n = total(Self.noGesture)
        return n == 0 ? nil : 1 - Double(count(Self.noGesture, fired: Self.noGesture)) / Double(n)
    }
}

private func percent(_ value: Double?) -> String {
    guard let value else { return "-" }
    return fixed(value * 100, decimals: 1) + "%"
}
