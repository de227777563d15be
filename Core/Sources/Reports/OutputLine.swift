import TouchCore

/// One line of what `replay`, `monitor` and `run --print` show, described once as its
/// parts: `text` renders it for people (`FILE  TIME  words key=value`), `json` as one
/// JSON object for programs. Every kind of line is made of these and nothing else.
public struct OutputLine {
    public enum Value {
        case string(String)
        case integer(Int)
        /// With `decimals` places in text and `jsonDecimals` in JSON.
        case number(Double, decimals: Int, jsonDecimals: Int)
    }

    public enum Part {
        /// Text only: a word, or words, between fields.
        case word(String)
        /// Its value in text (between `before` and `after`); its key and value in JSON.
        case field(String, Value, before: String = "", after: String = "")
        /// `key=value` in text.
        case named(String, Value)
        /// JSON only.
        case hidden(String, Value)
        /// Text only: the next part comes two spaces on instead of one.
        case gap
    }

    public var file: String
    public var time: Timestamp?
    public var parts: [Part]

    public init(file: String, time: Timestamp? = nil, _ parts: [Part]) {
        self.file = file
        self.time = time
        self.parts = parts
    }

    public func rendered(as format: OutputFormat) -> String {
        switch format {
        case .text: text
        case .jsonl: json
        }
    }

    public var text: String {
        var out = file
        if let time { out += "  " + fixed(time.seconds, decimals: 6) }
        var separator = "  "
        for part in parts {
            let shown: String
            switch part {
            case .word(let word): shown = word
            case .field(_, let value, let before, let after): shown = before + Self.text(value) + after
            case .named(let key, let value): shown = key + "=" + Self.text(value)
            case .hidden: continue
            case .gap:
                separator = "  "
                continue
            }
            out += separator + shown
            separator = " "
        }
        return out
    }

    public var json: String {
        var line = JSONLine()
        line.add("file", file)
        if let time { line.add("time", time.seconds) }
        for part in parts {
            switch part {
            case .field(let key, let value, _, _), .named(let key, let value), .hidden(let key, let value):
                switch value {
                case .string(let text): line.add(key, text)
                case .integer(let number): line.add(key, number)
                case .number(let number, _, let decimals): line.add(key, number, decimals: decimals)
                }
            case .word, .gap:
                continue
            }
        }
        return line.line
    }

    private static func text(_ value: Value) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        case .number(let number, let decimals, _): fixed(number, decimals: decimals)
        }
    }
}
