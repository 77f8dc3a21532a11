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
        @Sendable func fail(_ endpoint: String) -> UnimplementedError {
            let error = UnimplementedError(endpoint: "ThemeClient." + endpoint)
            reportTestFailure(error.description, fileID: fileID, filePath: filePath, line: line, column: column)
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
