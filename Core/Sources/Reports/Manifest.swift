import TouchCore

/// A CSV list of labelled recordings: a header naming the columns `file` and `label`
/// (others are kept out), files relative to the manifest. Who drew each stroke comes from
/// a `person` column, or else from `source`: its first path component's leading letters
/// and digits ("s01 (pilot)/fast/check01.xml" → s01). The dataset comes from a `dataset`
/// column, or else is the file name up to its first '-' ("mmg-10-stylus-….evemu" → mmg).
/// A person is named within a dataset ("mmg:10"): two datasets' "s04" are two people.
public struct Manifest {
    public struct Row {
        public var file: String
        public var label: String
        public var dataset = ""
        public var person = ""
    }

    public let path: String
    public private(set) var rows: [Row] = []

    public init(path: String, text: String) throws(FileError) {
        self.path = path
        let lines = text.split(whereSeparator: \.isNewline)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingSpaces }),
              let fileColumn = header.firstIndex(of: "file"), let labelColumn = header.firstIndex(of: "label") else {
            throw FileError(path: path, line: 1, message: "expected a header line naming the columns 'file' and 'label'")
        }
        let columns = ["person", "source", "dataset"].map { header.firstIndex(of: $0) }
        for (n, line) in lines.enumerated().dropFirst() where !line.allSatisfy(\.isWhitespace) {
            let fields = csvFields(line)
            guard fields.count > max(fileColumn, labelColumn), !fields[fileColumn].isEmpty, !fields[labelColumn].isEmpty else {
                throw FileError(path: path, line: n + 1, message: "expected a file and a label, found '\(line)'")
            }
            func field(_ column: Int?) -> String? { column.flatMap { $0 < fields.count && !fields[$0].isEmpty ? fields[$0] : nil } }
            var row = Row(file: fields[fileColumn], label: fields[labelColumn])
            let fileName = row.file.split(separator: "/").last.map(String.init) ?? row.file
            row.dataset = field(columns[2]) ?? fileName.split(separator: "-").first.map(String.init) ?? ""
            if let person = field(columns[0]) ?? field(columns[1]).map(Self.person(fromSource:)), !person.isEmpty {
                row.person = row.dataset + ":" + person
            }
            rows.append(row)
        }
    }

    private static func person(fromSource source: String) -> String {
        String((source.split(separator: "/").first ?? "").prefix { $0.isLetter || $0.isNumber })
    }

    /// A row's recording: absolute, or relative to the manifest's directory.
    public func path(of row: Row) -> String {
        if row.file.hasPrefix("/") { return row.file }
        return (path.lastIndex(of: "/").map { String(path[...$0]) } ?? "") + row.file
    }
}

/// A CSV line's fields, double quotes around a field keeping its commas.
private func csvFields(_ line: Substring) -> [String] {
    var fields: [String] = [], field = "", quoted = false
    for c in line {
        if c == "\"" { quoted.toggle() } else if c == ",", !quoted {
            fields.append(Substring(field).trimmingSpaces)
            field = ""
        } else {
            field.append(c)
        }
    }
    fields.append(Substring(field).trimmingSpaces)
    return fields
}

extension Substring {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
