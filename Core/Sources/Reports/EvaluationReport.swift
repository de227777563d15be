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

    private func percent(_ value: Double?) -> String {
        guard let value else { return "-" }
        return fixed(value * 100, decimals: 1) + "%"
    }
}

extension String {
    /// Left-aligned in `width` columns.
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
    /// Right-aligned in `width` columns.
    fileprivate func padded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
