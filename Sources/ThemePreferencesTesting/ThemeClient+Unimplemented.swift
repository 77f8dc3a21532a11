import LayeredDefaultsTesting
import ThemePreferences

extension ThemeClient {
    /// A client whose every closure fails the running test with a message naming the closure
    /// (`ThemeClient.load`, ...), pointing at the line that made the client: start from it and override
    /// what the test expects to be called.
    ///
    /// ```swift
    /// var theme = ThemeClient.unimplemented()
    /// theme.load = { .dark }
    /// ```
    /// Under Swift Testing the failure is an `Issue`; under XCTest, `XCTFail`. Then `save` and `reset`
    /// throw ``UnimplementedError`` (so the code under test does not carry on as if it saved), and
    /// `load` and `changes` return a placeholder (``Theme/system``, an empty stream).
    /// - Parameters:
    ///   - fileID: the file a failure is reported in.
    ///   - filePath: the file path a failure is reported in.
    ///   - line: the line a failure is reported at.
    ///   - column: the column a failure is reported at.
    public static func unimplemented(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> ThemeClient {
        failing { reportTestFailure($0, fileID: fileID, filePath: filePath, line: line, column: column) }
    }

    /// The client of ``unimplemented(fileID:filePath:line:column:)``, whose failures point at the running
    /// test's declaration (a property cannot know the line that used it): prefer `unimplemented()`, which
    /// points at that line.
    ///
    /// ```swift
    /// var client = ThemeClient.unimplemented
    /// client.load = { .dark }
    /// ```
    public static var unimplemented: ThemeClient {
        failing { reportTestFailureAtRunningTest($0) }
    }

    /// A client whose every closure reports with `report`; `save` and `reset` then throw.
    private static func failing(_ report: @escaping @Sendable (String) -> Void) -> ThemeClient {
        @Sendable func fail(_ endpoint: String) -> UnimplementedError {
            let error = UnimplementedError(endpoint: "ThemeClient." + endpoint)
            report(error.description)
            return error
        }
        return ThemeClient(
            load: {
                _ = fail("load")
                return .system
            },
            save: { _ in throw fail("save") },
            reset: { throw fail("reset") },
            changes: {
                _ = fail("changes")
                return AsyncStream { $0.finish() }
            })
    }
}
