import Foundation
import PackageTestSupport
import Testing

extension ChildProcess {
    /// Starts the fixture on `suite` in `root`, with `options` (e.g. ``Unprivileged/fixtureOptions``) first.
    static func fixture(
        _ root: URL, _ suite: String, _ arguments: [String], options: [String] = [],
        input: FileHandle? = nil
    ) throws -> ChildProcess {
        try ChildProcess("defaults-fixture", options + [root.path, suite] + arguments, input: input)
    }
}

/// Runs the fixture to completion (bounded by `timeout`) and returns its status, output and error text.
@discardableResult
func runFixture(
    _ root: URL, _ suite: String, _ arguments: [String], options: [String] = [],
    timeout: Duration = .seconds(20)
) throws -> ProcessResult {
    try run("defaults-fixture", options + [root.path, suite] + arguments, timeout: timeout)
}

/// Runs `script` with `/bin/sh` in a mount namespace of its own (so it may mount a small file system or
/// bind-mount a file without touching the machine's), with `arguments` as `$1`...; returns its status
/// and standard error.
///
/// NB: that needs root on Linux, so elsewhere the test is cancelled; so it is when the script exits 99,
/// its way of saying that it cannot mount here.
func runInOwnMountNamespace(_ script: String, _ arguments: [String]) throws -> ProcessResult {
    guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
        try Test.cancel("mounting needs root and unshare")
    }
    let result = try run(
        executable: URL(fileURLWithPath: "/usr/bin/unshare"), ["--mount", "/bin/sh", "-c", script, "sh"] + arguments)
    if result.status == 99 { try Test.cancel("cannot mount here: \(result.error)") }
    return result
}
