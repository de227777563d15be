import FoundationEssentials
import Gestures
@testable import Input
import Testing

/// Where Hyprland's `j/monitors` and `j/clients` say its windows are: those shown on the
/// focused monitor, topmost first.
@Suite struct HyprlandClientsTests {
    static func monitor(x: Int, focused: Bool, active: Int, special: Int = 0, scale: Double = 1, transform: Int = 0) -> String {
        #"{"id":0,"name":"M\#(x)","x":\#(x),"y":0,"width":2000,"height":1000,"scale":\#(scale),"transform":\#(transform),"focused":\#(focused),"#
            + #""activeWorkspace":{"id":\#(active),"name":"\#(active)"},"specialWorkspace":{"id":\#(special),"name":""}}"#
    }

    static func client(_ app: String, x: Int, workspace: Int, floating: Bool = false, fullscreen: String = "0",
                       hidden: Bool = false, pinned: Bool = false) -> String {
        #"{"address":"0x1","mapped":true,"hidden":\#(hidden),"at":[\#(x),0],"size":[100,100],"workspace":{"id":\#(workspace),"name":"w"},"#
            + #""floating":\#(floating),"pinned":\#(pinned),"fullscreen":\#(fullscreen),"class":"\#(app)","title":"t","focusHistoryID":0}"#
    }

    func layout(_ monitors: [String], _ clients: [String]) throws -> WindowLayout? {
        HyprlandWatcher.layout(monitors: try JSONDecoder().decode([HyprlandWatcher.Monitor].self, from: Data("[\(monitors.joined(separator: ","))]".utf8)),
                               clients: try JSONDecoder().decode([HyprlandWatcher.Client].self, from: Data("[\(clients.joined(separator: ","))]".utf8)))
    }

    @Test func theFocusedMonitorsWindowsTopmostFirst() throws {
        let shown = try layout([Self.monitor(x: 0, focused: false, active: 1), Self.monitor(x: 2000, focused: true, active: 2, special: -98)], [
            Self.client("elsewhere", x: 0, workspace: 1),
            Self.client("tiled", x: 2000, workspace: 2),
            Self.client("low", x: 2050, workspace: 2, floating: true),
            Self.client("high", x: 2060, workspace: 2, floating: true),
            Self.client("scratch", x: 2070, workspace: -98),
            Self.client("hidden", x: 2000, workspace: 2, hidden: true),
            Self.client("pinned", x: 2080, workspace: 7, floating: true, pinned: true),
        ])
        #expect(shown?.windows.map(\.app.appID) == ["scratch", "pinned", "high", "low", "tiled"])
        #expect(shown?.screen == WindowLayout.Frame(x: 2000, y: 0, width: 2000, height: 1000))
    }

    @Test func aFullscreenWindowIsOverAllAsABooleanOrAMode() throws {
        for fullscreen in ["true", "2"] {
            let shown = try layout([Self.monitor(x: 0, focused: true, active: 1)], [
                Self.client("float", x: 0, workspace: 1, floating: true), Self.client("video", x: 0, workspace: 1, fullscreen: fullscreen),
            ])
            #expect(shown?.windows.first?.app.appID == "video")
        }
    }

    @Test func aScaledOrTurnedMonitorCoversItsLogicalSize() throws {
        let turned = try layout([Self.monitor(x: 0, focused: true, active: 1, scale: 2, transform: 1)], [])
        #expect(turned?.screen == WindowLayout.Frame(x: 0, y: 0, width: 500, height: 1000))
        for (scale, width) in [("0", Int32(2000)), ("-1", 2000), ("1e-300", Int32.max)] {
            let odd = #"[{"x":0,"y":0,"width":2000,"height":1000,"scale":\#(scale),"focused":true}]"#
            let monitors = try JSONDecoder().decode([HyprlandWatcher.Monitor].self, from: Data(odd.utf8))
            #expect(HyprlandWatcher.layout(monitors: monitors, clients: [])?.screen.width == width)
        }
    }

    @Test func noMonitorIsNoLayout() throws {
        #expect(try layout([], [Self.client("a", x: 0, workspace: 1)]) == nil)
    }

    @Test func eventsThatMoveNoWindowAskNothing() {
        #expect(HyprlandWatcher.event(Array("windowtitle>>55d1".utf8)[...]) == "windowtitle")
        #expect(HyprlandWatcher.event(Array("openwindow>>55d1,1,kitty,~".utf8)[...]) == "openwindow")
        #expect(HyprlandWatcher.event(Array("no separator".utf8)[...]) == "no separator")
    }
}
