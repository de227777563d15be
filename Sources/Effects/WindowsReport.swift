import Foundation
import Gestures
import TouchCore

/// ReportWindows's arguments (`ss`): who says, and where the windows are as JSON,
/// `{"screen": [x, y, width, height], "windows": [[x, y, width, height, app id, WM_CLASS
/// class, instance], …]}`, the windows shown on the screen the panel covers, topmost
/// first, names empty for what a window has not. A screen without area, or none, says
/// that where the windows are is not known. Text, because KWin's scripts can pass
/// nothing else whole (callDBus makes every array an array of variants). Written by the
/// session agent, read by gestured and by the agent (from the KWin script and the GNOME
/// Shell extension): one codec for both ends.
public struct WindowsReport: Equatable, Sendable {
    public var source: String
    /// Nil: not known.
    public var layout: WindowLayout?
    /// The source or the layout was longer than allowed: nothing of them was read.
    public var tooLong = false
    /// Who called, as the bus vouches for it (on the system bus); nil when it did not say.
    public var caller: BusCaller?

    public init(source: String, layout: WindowLayout?) {
        self.source = source
        self.layout = layout
    }

    /// The longest layout taken, in bytes: `WindowLayout.mostWindows` windows with long names.
    public static let longestLayout = 256 * 1024

    /// What stands for the report of a caller that is refused whoever it names: nothing read.
    static let unread = WindowsReport(source: "", layout: nil)

    /// A report from its layout's JSON, nil when it is no layout. Of the windows the first
    /// `WindowLayout.mostWindows` are kept (the rest are further down the stack); a name
    /// longer than `AppInFront.longestName` is left out, as a desktop's follower leaves
    /// it, while its window still covers what is below.
    static func decoding(source: String, json text: String) -> WindowsReport? {
        // Who says is a peer's word, shown in the log and by `monitor`: printable, short.
        let name = printable(source.isEmpty ? "the bus" : source, limit: 32)
        guard let said = try? JSONDecoder().decode(Said.self, from: Data(text.utf8)) else { return nil }
        guard let screen = said.screen else { return WindowsReport(source: source, layout: nil) }
        let windows = said.windows.prefix(WindowLayout.mostWindows).map { window in
            WindowLayout.Window(frame: window.frame, app: AppInFront(appID: window.names[0], windowClass: window.names[1],
                                                                      instance: window.names[2], source: name))
        }
        return WindowsReport(source: source, layout: WindowLayout(screen: screen.frame, windows: windows, source: name))
    }

    /// The layout as JSON, as gestured's own reporters write it.
    var json: String {
        let said = Said(screen: layout.map { Said.Rectangle($0.screen) },
                        windows: (layout?.windows ?? []).map { Said.Window(frame: $0.frame, names: [$0.app.appID, $0.app.windowClass, $0.app.instance]) })
        return (try? JSONEncoder().encode(said)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The layout's JSON.
    private struct Said: Codable {
        var screen: Rectangle?
        var windows: [Window]

        init(screen: Rectangle?, windows: [Window]) {
            self.screen = screen
            self.windows = windows
        }

        init(from decoder: any Decoder) throws {
            let keyed = try decoder.container(keyedBy: CodingKeys.self)
            screen = try keyed.decodeIfPresent(Rectangle.self, forKey: .screen)
            windows = try keyed.decodeIfPresent([Window].self, forKey: .windows) ?? []
        }

        /// [x, y, width, height], in the desktop's layout units (KWin's may be fractions).
        struct Rectangle: Codable {
            var frame: WindowLayout.Frame

            init(_ frame: WindowLayout.Frame) { self.frame = frame }

            init(from decoder: any Decoder) throws {
                var numbers = try decoder.unkeyedContainer()
                frame = try Self.frame(&numbers)
            }

            func encode(to encoder: any Encoder) throws {
                var numbers = encoder.unkeyedContainer()
                try Self.encode(frame, &numbers)
            }

            static func frame(_ numbers: inout any UnkeyedDecodingContainer) throws -> WindowLayout.Frame {
                func next() throws -> Int32 { clamped(try numbers.decode(Double.self)) }
                return WindowLayout.Frame(x: try next(), y: try next(), width: try next(), height: try next())
            }

            static func encode(_ frame: WindowLayout.Frame, _ numbers: inout any UnkeyedEncodingContainer) throws {
                for number in [frame.x, frame.y, frame.width, frame.height] { try numbers.encode(number) }
            }

            /// A peer's number as a coordinate: rounded, and held within Int32 (NaN is 0).
            static func clamped(_ value: Double) -> Int32 {
                guard !value.isNaN else { return 0 }
                return Int32(max(Double(Int32.min), min(Double(Int32.max), value.rounded())))
            }
        }

        /// [x, y, width, height, app id, class, instance].
        struct Window: Codable {
            var frame: WindowLayout.Frame
            /// The app id, the class and the instance; nil for each it has not (or too long).
            var names: [String?]

            init(frame: WindowLayout.Frame, names: [String?]) {
                self.frame = frame
                self.names = names
            }

            init(from decoder: any Decoder) throws {
                var fields = try decoder.unkeyedContainer()
                frame = try Rectangle.frame(&fields)
                names = []
                for _ in 0..<3 {
                    let name = fields.isAtEnd ? nil : try fields.decodeIfPresent(String.self)
                    names.append(name.flatMap { $0.isEmpty || $0.utf8.count > AppInFront.longestName ? nil : $0 })
                }
            }

            func encode(to encoder: any Encoder) throws {
                var fields = encoder.unkeyedContainer()
                try Rectangle.encode(frame, &fields)
                for name in names { try fields.encode(name ?? "") }
            }
        }
    }
}
