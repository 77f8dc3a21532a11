import Foundation
import PackageTestSupport
import Testing

/// What a failing integration test reports, and nothing more: the test's name, the suite, the app's
/// version, whether the key exists, its actual type and the expected fallback. Never a stored value
/// and never the domain: preferences may hold personal data.
///
/// The key's existence and type are asked of `prefs read-type` in another process, only when an
/// expectation fails.
struct FailureReport: Sendable {
    /// The test (and its phase).
    let test: String
    /// The executable under test, whose `--version` is reported: `theme-demo` or `prefs`.
    let app: String
    /// The suite under test.
    let suite: String
    /// The key whose state is reported.
    let key: String
    /// What a reader falls back to when the key is missing or unreadable (or the expected type).
    let expectedFallback: String
    /// Runs the child processes.
    let launcher: Launcher

    /// The report for `phase`.
    func comment(_ phase: String) -> Comment {
        let version =
            (try? launcher.run(app, ["--version"]))
            .flatMap { $0.succeeded ? $0.output.trimmingCharacters(in: .whitespacesAndNewlines) : nil } ?? "unknown"
        let exists: String
        let type: String
        switch try? launcher.prefs("read-type", suite, key) {
        case let result? where result.succeeded && result.output.hasPrefix("Type is "):
            (exists, type) = ("yes", String(result.output.dropFirst("Type is ".count)).trimmingCharacters(in: .newlines))
        case let result? where result.status == 1 && !result.signaled:
            (exists, type) = ("no", "none")
        default:
            (exists, type) = ("unknown (the store could not be read)", "unknown")
        }
        return Comment(
            rawValue:
                "test: \(test) [\(phase)]; suite: \(suite); app version: \(version); key '\(key)' exists: \(exists); actual type: \(type); expected fallback: \(expectedFallback)"
        )
    }

    /// Records an issue with this report when `condition` is false.
    ///
    /// Pass a condition computed beforehand (`let shown = ...`): `#expect` prints the operands of a
    /// comparison, which may be stored values.
    func expect(_ condition: Bool, _ phase: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(condition, comment(phase), sourceLocation: sourceLocation)
    }

    /// Expects `result` to be a normal exit that printed exactly `theme`.
    func expectShows(_ theme: String, _ result: ProcessResult, _ phase: String, sourceLocation: SourceLocation = #_sourceLocation)
    {
        let shows = result.succeeded && result.output == theme + "\n"
        expect(shows, phase + ": expected the app to exit 0 showing the expected theme", sourceLocation: sourceLocation)
    }
}
