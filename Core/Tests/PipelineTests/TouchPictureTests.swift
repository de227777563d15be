import Foundation
import Pipeline
import Reports
import Testing
import TouchCore

@Suite struct TouchPictureTests {
    /// A fixture replayed under its own configuration, drawn.
    func picture(_ name: String, title: String? = nil) throws -> String {
        let text = try String(contentsOf: FixtureTests.directory.appendingPathComponent(name), encoding: .utf8)
        let fixture = try Fixture(text, file: name)
        let parsed = try Evemu.parse(Array(text.utf8))
        let recording = Recording(path: name, description: try #require(parsed.description), events: parsed.events,
                                  lastEventLine: parsed.lastEventLine)
        let geometry = try #require(TouchscreenPipeline.geometry(recording.description, rule: nil, rotation: .upright))
        var picture = TouchPicture(title: title ?? name, size: geometry.size)
        var playback = Playback(config: fixture.config)
        playback.explain = true
        try playback.play(recording) { picture.add($0) }
        #expect(picture.touchesDown == 0)
        return picture.svg()
    }

    func count(_ text: String, in svg: String) -> Int { svg.components(separatedBy: text).count - 1 }

    @Test func aFailedCheckmarkShowsItsTraceAndWhy() throws {
        let svg = try picture("checkmark-too-small.evemu")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(count("<polyline", in: svg) == 1)
        #expect(svg.contains("No gesture fired"))
        #expect(svg.contains("0.20 s: confirm failed: stroke 18 mm across, needs 30 mm"))
        // The panel at the aspect ratio of its 295 × 166 mm.
        #expect(svg.contains("width=\"760.0\" height=\"427.4\" rx=\"8\""))
        #expect(svg.contains("panel 295 × 166 mm"))
    }

    @Test func aRecognizedCheckmarkIsListedAsFired() throws {
        let svg = try picture("checkmark.evemu")
        #expect(svg.contains(">Fired<"))
        #expect(svg.contains("0.40 s: confirm (checkmark) recognized, 1 finger<"))
    }

    @Test func fourFingersGetFourColoursAndEndMarks() throws {
        let svg = try picture("four-finger-drag.evemu")
        #expect(count("<polyline", in: svg) == 4)
        for colour in ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"] {
            #expect(svg.contains("stroke=\"\(colour)\" stroke-width=\"3\" stroke-linejoin"))
        }
        // Lifted touches end in a square; the start circles carry their numbers.
        #expect(count("width=\"10\" height=\"10\" fill=\"white\"", in: svg) == 4)
        #expect(svg.contains("font-weight=\"bold\">4</text>"))
        #expect(svg.contains("4 touches over 0.21 s"))
    }

    @Test func textIsEscaped() throws {
        let svg = try picture("tap.evemu", title: "a<b & \"c\">")
        #expect(svg.contains("a&lt;b &amp; &quot;c&quot;&gt;"))
        #expect(!svg.contains("a<b"))
    }
}
