import Config
import Gestures
import Pipeline
import TouchCore

/// Replays every recording of a manifest and scores what fired.
public struct Evaluator {
    public var playback: Playback
    /// Leave-one-person-out: each recording is judged without the built-in stroke
    /// templates its own person drew (see `StrokeMatcher.leftOutPerson`).
    public var heldOut = false
    public var listMisses = false

    public init(config: Configuration) {
        playback = Playback(config: config)
    }

    /// `load` reads a recording by the manifest's path; `progress` hears of each row done.
    /// Malformed recordings are reported through `problem` and left out of the figures.
    public func evaluate(_ manifest: Manifest, load: (String) throws(FileError) -> Recording,
                         progress: (_ done: Int, _ total: Int) -> Void = { _, _ in },
                         problem: (FileError) -> Void) -> EvaluationRun {
        var run = EvaluationRun()
        var playback = playback
        playback.explain = playback.explain || listMisses
        for (n, row) in manifest.rows.enumerated() {
            progress(n + 1, manifest.rows.count)
            playback.leftOutPerson = heldOut ? row.person : nil
            do {
                var fired: String?
                var transitions: [Transition] = []
                let leftOut = try playback.play(try load(manifest.path(of: row))) { step in
                    if fired == nil, let first = step.events.first(where: { $0.phase == .recognized || $0.phase == .began }) {
                        fired = first.name
                    }
                    if listMisses { transitions += step.transitions }
                }
                if leftOut { run.heldOut += 1 }
                run.record(row, fired: fired ?? Evaluation.noGesture)
                if listMisses, (fired ?? Evaluation.noGesture) != row.label {
                    let failure = transitions.last { $0.gesture == row.label && $0.to == .failed }
                    let note = transitions.last { $0.gesture == fired && $0.from == $0.to }
                    run.misses.append((row.file, row.label, fired ?? Evaluation.noGesture, (failure ?? note)?.reason ?? ""))
                }
            } catch {
                problem(error)
            }
        }
        return run
    }
}
