import FoundationEssentials
import Gestures
@testable import Input
import Testing

/// Where sway's tree says its windows are: those shown, topmost first.
@Suite struct SwayTreeTests {
    static func view(_ app: String, _ x: Int, _ visible: Bool = true, fullscreen: Int = 0) -> String {
        #"{"type":"con","app_id":"\#(app)","visible":\#(visible),"fullscreen_mode":\#(fullscreen),"rect":{"x":\#(x),"y":0,"width":100,"height":100},"nodes":[],"floating_nodes":[]}"#
    }

    static func tree(_ views: [String], floating: [String] = [], hidden: [String] = []) -> String {
        #"{"type":"root","rect":{"x":0,"y":0,"width":1000,"height":500},"nodes":[{"type":"output","rect":{"x":0,"y":0,"width":1000,"height":500},"nodes":["#
            + #"{"type":"workspace","fullscreen_mode":1,"visible":true,"rect":{"x":0,"y":0,"width":1000,"height":500},"nodes":[\#((views + hidden).joined(separator: ","))],"floating_nodes":[\#(floating.joined(separator: ","))]}]}]}"#
    }

    func layout(_ json: String) throws -> WindowLayout? {
        try JSONDecoder().decode(SwayWatcher.Node.self, from: Data(json.utf8)).layout("sway")
    }

    @Test func floatingWindowsAreOverTiledOnesAndAFullscreenOneOverAll() throws {
        let tiled = try layout(Self.tree([Self.view("a", 0), Self.view("b", 100)], floating: [Self.view("low", 50), Self.view("high", 60)],
                                         hidden: [Self.view("tab", 0, false)]))
        #expect(tiled?.windows.map(\.app.appID) == ["high", "low", "b", "a"])
        #expect(tiled?.screen == WindowLayout.Frame(x: 0, y: 0, width: 1000, height: 500))
        let full = try layout(Self.tree([Self.view("a", 0), Self.view("video", 0, fullscreen: 1)], floating: [Self.view("f", 50)]))
        #expect(full?.windows.first?.app.appID == "video")
    }

    @Test func i3sTreeWithoutVisibleSaysNothingOfWhereWindowsAre() throws {
        let i3 = #"{"type":"root","rect":{"x":0,"y":0,"width":1000,"height":500},"nodes":[{"type":"con","app_id":"a","rect":{"x":0,"y":0,"width":10,"height":10},"nodes":[]}]}"#
        #expect(try layout(i3) == nil)
    }
}
