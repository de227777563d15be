import CGtk
import Effects
import Gestures
import Pipeline
import SystemIO
import TouchCore

/// The live inspector: while the studio is open, the fingers' trails on the panel, a bar
/// for each gesture in the running (how far toward its threshold, and its state), and once
/// the fingers lift, why each gesture did not fire (`replay --explain`'s reasons, from the
/// running gestured: `Inspect`). Its user's actions may be held back meanwhile (dry run).
/// A finished touch sequence goes to `onSequence` (the teacher and the app picker).
@MainActor
final class Inspector {
    let widget = Make.box(vertical: false, spacing: 12)
    private let area = gtk_drawing_area_new()!.named("touches")
    private let why = Make.label("Touch the screen: each gesture's progress shows here.", wrap: true)
    private let answer = Make.label("", wrap: true)
    private let dryRun = gtk_check_button_new_with_label("Hold my gestures' actions back while I try them")!.named("dry run")
    /// Each bar, and the gesture it was last named for (a screen reader's name is said
    /// to the accessibility bus when set: set when it changes, not 60 times a second).
    private var bars: [(label: Widget, bar: Widget, gesture: String)] = []
    private let watch = InspectionWatch()
    private var bus: GLibBus?
    /// What is drawn: the panel's proportions, each finger's trail (by touch id) and
    /// where the fingers are.
    private var trails: [Int: [Point]] = [:]
    private var fingers: [Point] = []
    private var aspect = 16.0 / 9
    private var wasOver = true
    /// Held back while a sequence is taken for something (teaching, picking), whatever the box says.
    var holdsBack = false { didSet { if holdsBack != oldValue { ask() } } }
    /// A touch sequence ended: the first finger's path in millimetres, and the application it was on.
    var onSequence: (_ path: [Point], _ app: String?) -> Void = { _, _ in }
    /// `--trace`: when each verdict is drawn, on the monotonic clock (what tests measure).
    private let trace: Bool
    private var verdictUndrawn = false
    private let traceOutput = OutputBuffer()

    static let longestTrail = 2_000

    init(trace: Bool) {
        self.trace = trace
        gtk_drawing_area_set_content_width(area.as(GtkDrawingArea.self), 420)
        gtk_drawing_area_set_content_height(area.as(GtkDrawingArea.self), 240)
        gtk_drawing_area_set_draw_func(area.as(GtkDrawingArea.self), { _, cairo, width, height, data in
            guard let cairo, let data else { return }
            MainActor.assumeIsolated { Unmanaged<Inspector>.fromOpaque(data).takeUnretainedValue().draw(cairo, Double(width), Double(height)) }
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        widget.append(area)
        let column = Make.box(vertical: true, spacing: 4)
        // The verdict takes the width there is, wrapped to it.
        gtk_widget_set_hexpand(why, 1)
        gtk_label_set_yalign(why.opaque, 0)
        gtk_widget_set_hexpand(column, 1)
        column.append(Make.label("What gestured decides as you touch:"))
        let rows = Make.box(vertical: true, spacing: 4)
        for _ in 0..<InspectionDetail.mostGestures {
            let label = Make.label("")
            // One width for every name, so that the bars line up.
            gtk_label_set_width_chars(label.opaque, 24)
            gtk_label_set_ellipsize(label.opaque, PANGO_ELLIPSIZE_END)
            let bar = gtk_progress_bar_new()!
            gtk_widget_set_hexpand(bar, 1)
            let row = Make.row(label, bar)
            gtk_widget_set_visible(row, 0)
            rows.append(row)
            bars.append((label, bar, ""))
        }
        // Bars that come and go, and a verdict of one line or ten, within heights that do
        // not change: a window that asked for another size at each lift would wait on
        // the compositor before it drew.
        column.append(Self.scrolled(rows, height: 150))
        // A label's accessible name is its text: its row is what a screen reader finds it by.
        let verdict = Make.row(why).named("why")
        gtk_widget_set_valign(verdict, GTK_ALIGN_START)
        column.append(Self.scrolled(verdict, height: 130))
        column.append(dryRun)
        column.append(Make.row(answer).named("inspector status"))
        widget.append(column)
        SignalHandler.connect(dryRun, "toggled") { [unowned self] in ask() }
        watch.onUpdate = { [unowned self] in show($0) }
        watch.onAnswer = { [unowned self] refusal in gtk_label_set_text(answer.opaque, refusal.map { "gestured: \($0)" } ?? "") }
        bus = GLibBus(watch)
        ask()
    }

    private func ask() {
        let dry = holdsBack || gtk_check_button_get_active(dryRun.as(GtkCheckButton.self)) != 0
        watch.ask(dry ? .dry : .on)
        bus?.run()
    }

    private func show(_ update: Inspection) {
        let detail = update.detail
        if wasOver, !detail.over {
            trails = [:]
            gtk_label_set_text(why.opaque, "Your fingers are down: what fired, and why the others did not, shows when they lift.")
        }
        wasOver = detail.over
        aspect = detail.widthMM / detail.heightMM
        for (id, point) in zip(detail.touches, update.frame.fingers) where (trails[id]?.count ?? 0) < Self.longestTrail {
            trails[id, default: []].append(point)
        }
        fingers = update.frame.fingers
        for (index, row) in bars.enumerated() {
            let shown = index < detail.gestures.count
            gtk_widget_set_visible(gtk_widget_get_parent(row.bar), shown ? 1 : 0)
            guard shown else { continue }
            let gesture = detail.gestures[index]
            gtk_label_set_text(row.label.opaque, "\(gesture.name): \(Self.words(gesture.state))")
            gtk_progress_bar_set_fraction(row.bar.opaque, gesture.progress)
            if row.gesture != gesture.name {
                _ = row.bar.named("\(gesture.name) progress")
                bars[index].gesture = gesture.name
            }
        }
        if detail.over {
            if trace { say("verdict heard") }
            gtk_label_set_text(why.opaque, Self.verdict(detail))
            verdictUndrawn = true
            if let first = trails.keys.min(), let path = trails[first] {
                onSequence(path.map { Point(x: $0.x * detail.widthMM, y: $0.y * detail.heightMM) }, detail.app)
            }
        }
        gtk_widget_queue_draw(area)
    }

    /// `child` in a box of this height, scrolled when it is taller.
    private static func scrolled(_ child: Widget, height: Int32) -> Widget {
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(scrolled.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_min_content_height(scrolled.opaque, height)
        gtk_scrolled_window_set_max_content_height(scrolled.opaque, height)
        gtk_scrolled_window_set_child(scrolled.opaque, child)
        gtk_widget_set_hexpand(scrolled, 1)
        return scrolled
    }

    /// What fired, or that nothing did; then why each other gesture did not.
    static func verdict(_ detail: InspectionDetail) -> String {
        let fired = detail.gestures.filter { $0.state == .ended || $0.state.isActive || $0.state == .cancelled && $0.progress >= 1 }
        let others = detail.gestures.filter { !fired.contains($0) && $0.why != nil }
        var lines = [fired.isEmpty ? "Nothing fired." : "Fired: \(fired.map(\.name).joined(separator: ", "))."]
        lines += others.map { "\($0.name) did not: \($0.why ?? "")" }
        if detail.gestures.isEmpty { lines.append("No gesture takes these touches here (their fingers, mode or application).") }
        return lines.joined(separator: "\n")
    }

    private static func words(_ state: RecognizerState) -> String {
        switch state {
        case .possible: "deciding"
        case .began, .changed: "under way"
        case .ended: "fired"
        case .cancelled: "cancelled"
        case .failed: "did not fire"
        }
    }

    private func draw(_ cairo: OpaquePointer, _ width: Double, _ height: Double) {
        // The panel, as large as fits, in its own proportions.
        let w = min(width, height * aspect), h = w / aspect
        let x0 = (width - w) / 2, y0 = (height - h) / 2
        cairo_set_source_rgb(cairo, 0.95, 0.95, 0.95)
        cairo_rectangle(cairo, x0, y0, w, h)
        cairo_fill(cairo)
        cairo_set_source_rgb(cairo, 0.6, 0.6, 0.6)
        cairo_set_line_width(cairo, 1)
        cairo_rectangle(cairo, x0 + 0.5, y0 + 0.5, w - 1, h - 1)
        cairo_stroke(cairo)
        cairo_set_source_rgb(cairo, 0.21, 0.52, 0.89)
        cairo_set_line_width(cairo, 3)
        for trail in trails.values {
            guard let first = trail.first else { continue }
            cairo_move_to(cairo, x0 + first.x * w, y0 + first.y * h)
            for point in trail.dropFirst() { cairo_line_to(cairo, x0 + point.x * w, y0 + point.y * h) }
            cairo_stroke(cairo)
        }
        for finger in fingers {
            cairo_arc(cairo, x0 + finger.x * w, y0 + finger.y * h, 9, 0, 2 * Double.pi)
            cairo_fill(cairo)
        }
        if trace, verdictUndrawn {
            verdictUndrawn = false
            say("verdict drawn")
        }
    }

    /// `--trace`: what happened when, on the monotonic clock in microseconds.
    private func say(_ what: String) {
        traceOutput.write(line: "\(what) \(monotonicMicroseconds())")
        traceOutput.flush()
    }
}
