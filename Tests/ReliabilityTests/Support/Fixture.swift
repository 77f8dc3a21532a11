import Foundation
import PackageTestSupport

extension ChildProcess {
    /// Starts the fixture on `suite` in `root`, with `options` (e.g. ``Unprivileged/fixtureOptions``) first.
    static func fixture(_ root: URL, _ suite: String, _ arguments: [String], options: [String] = [],
                        input: FileHandle? = nil) throws -> ChildProcess {
        try ChildProcess("defaults-fixture", options + [root.path, suite] + arguments, input: input)
    }
}

/// Runs the fixture to completion (bounded by `timeout`) and returns its status, output and error text.
@discardableResult
func runFixture(_ root: URL, _ suite: String, _ arguments: [String], options: [String] = [],
                timeout: Duration = .seconds(20)) throws -> ProcessResult {
    try run("defaults-fixture", options + [root.path, suite] + arguments, timeout: timeout)
}
