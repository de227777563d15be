import Logging
import SystemIO

/// Log lines on stderr, one per message. Under systemd (JOURNAL_STREAM set) each line
/// starts with its syslog priority (`<6>`) so the journal keeps the level.
public struct StderrLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let journal = Environment.has("JOURNAL_STREAM")

    public init() {}

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// A message of several lines continues indented, each line with the priority under
    /// the journal; other control characters are escaped: nothing a message carries (a
    /// command's output, a device's name) can pass for a line of its own.
    public func log(event: LogEvent) {
        let prefix = journal ? "<\(Self.priority(event.level))>" : "\(event.level): "
        let continued = journal ? "\n\(prefix)  " : "\n  "
        var text = prefix
        for scalar in event.message.description.unicodeScalars {
            switch scalar {
            case "\n": text += continued
            case "\t": text.unicodeScalars.append(scalar)
            case _ where scalar.properties.generalCategory == .control:
                text += "\\u{\(String(scalar.value, radix: 16))}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        printErrorRaw(text + "\n")
    }

    private static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
