import Gestures
import TouchCore

/// The applications a gesture is for (`apps`) or not for (`not_apps`): lists of
/// shell-style patterns (see `AppPattern`), matched against the focused window's
/// application or, with `apps_window = "touched"`, the one under the first touch.
extension Configuration {
    static let appKeys = ["apps", "not_apps", "apps_window"]
    /// The most patterns one list holds: each is matched at every change of application.
    static let mostAppPatterns = 64

    static func parseApps(_ t: TableReader, into spec: inout GestureSpec) {
        spec.apps = AppCondition(only: appPatterns(t, "apps") ?? [], except: appPatterns(t, "not_apps") ?? [])
        guard t.choice("apps_window", ["focused", "touched"], what: " (touched: the window under the first touch)") == "touched" else { return }
        if spec.apps.isEverywhere {
            t.report("apps_window", "has no apps or not_apps to match; name the applications, or leave apps_window out")
        }
        spec.apps.underTouch = true
    }

    private static func appPatterns(_ t: TableReader, _ key: String) -> [String]? {
        guard let patterns = t.names(key) else { return nil }
        guard !patterns.isEmpty else {
            t.report(key, "empty; list applications, like [\"firefox\", \"org.mozilla.*\"] (app ids, or X11 WM_CLASS names), or leave \(key) out")
            return nil
        }
        guard patterns.count <= mostAppPatterns else {
            t.report(key, "holds \(patterns.count) patterns; at most \(mostAppPatterns) (a pattern like \"org.gnome.*\" names many)")
            return nil
        }
        for pattern in patterns {
            if pattern.utf8.count > AppInFront.longestName {
                t.report(key, "holds a pattern of \(pattern.utf8.count) bytes; no application's name is longer than \(AppInFront.longestName)")
                return nil
            }
            if let problem = AppPattern.problem(pattern) {
                t.report(key, "\"\(printable(pattern))\": \(problem)")
                return nil
            }
        }
        return patterns
    }
}
