import ThemePreferences

#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

extension ThemeClient {
    /// A client whose every closure fails the running test with a message naming the closure
    /// (`ThemeClient.load`, ...): start from it and override what the test expects to be called.
    ///
    /// ```swift
    /// var theme = ThemeClient.unimplemented
    /// theme.load = { .dark }
    /// ```
    /// Under Swift Testing the failure is an `Issue`; under XCTest, `XCTFail`. The closures then
    /// return a placeholder (``Theme/system``, an empty stream) so the code under test can go on.
    public static var unimplemented: ThemeClient {
        ThemeClient(
            load: {
                reportUnimplemented("ThemeClient.load")
                return .system
            },
            save: { _ in reportUnimplemented("ThemeClient.save") },
            reset: { reportUnimplemented("ThemeClient.reset") },
            changes: {
                reportUnimplemented("ThemeClient.changes")
                return AsyncStream { $0.finish() }
            })
    }
}

/// Fails the running test: an `Issue` under Swift Testing, else `XCTFail` under XCTest.
func reportUnimplemented(_ name: String, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    let message = "Unimplemented: '\(name)' was called"
    #if canImport(Testing)
    if Test.current != nil {
        Issue.record(Comment(rawValue: message), sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return
    }
    #endif
    #if canImport(XCTest)
    XCTFail(message)
    #endif
}
