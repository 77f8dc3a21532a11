import LayeredDefaultsTesting
import ThemePreferences

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
                reportTestFailure("Unimplemented: 'ThemeClient.load' was called")
                return .system
            },
            save: { _ in reportTestFailure("Unimplemented: 'ThemeClient.save' was called") },
            reset: { reportTestFailure("Unimplemented: 'ThemeClient.reset' was called") },
            changes: {
                reportTestFailure("Unimplemented: 'ThemeClient.changes' was called")
                return AsyncStream { $0.finish() }
            })
    }
}
