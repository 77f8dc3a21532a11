import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

@testable import LayeredDefaultsTesting

/// What a test tool reported: the messages of the issues it recorded.
final class IssueLog: Sendable {
    private let entries = Lock<[(message: String, location: SourceLocation?)]>([])
    var messages: [String] { entries.withLock { $0.map(\.message) } }
    var locations: [SourceLocation?] { entries.withLock { $0.map(\.location) } }
    func append(_ issue: Issue) {
        entries.withLock { $0.append((issue.comments.map(\.rawValue).joined(separator: "\n"), issue.sourceLocation)) }
    }
}

/// Runs `body`, which must record at least one issue (else the test fails), and returns what it recorded.
func expectIssues(_ body: () throws -> Void) rethrows -> IssueLog {
    let log = IssueLog()
    try withKnownIssue {
        try body()
    } matching: { issue in
        log.append(issue)
        return true
    }
    return log
}

/// The asynchronous form of ``expectIssues(_:)``.
func expectIssues(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void) async rethrows -> IssueLog {
    let log = IssueLog()
    try await withKnownIssue {
        try await body()
    } matching: { issue in
        log.append(issue)
        return true
    }
    return log
}

/// A reporter that keeps what the recorder reports instead of failing the test.
final class CapturingReporter: Sendable {
    private let entries = Lock<(failures: [String], notes: [String])>(([], []))
    var failures: [String] { entries.withLock { $0.failures } }
    var notes: [String] { entries.withLock { $0.notes } }
    var reporter: IssueReporter {
        IssueReporter(
            fail: { message, _ in self.entries.withLock { $0.failures.append(message) } },
            note: { message, _ in self.entries.withLock { $0.notes.append(message) } })
    }
}

extension DefaultsRecorder {
    /// A recorder that reports to `capture` instead of the running test.
    convenience init(_ defaults: Defaults, exhaustivity: Exhaustivity = .on, reportingTo capture: CapturingReporter) throws {
        try self.init(
            defaults, domain: nil, exhaustivity: exhaustivity, reporter: capture.reporter,
            site: CallSite(fileID: #fileID, filePath: #filePath, line: #line, column: #column))
    }
}

/// The names of the entries of a directory, sorted.
func entries(of directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
}

/// The directory a store's domains live in.
func directory(of defaults: Defaults) -> URL? {
    defaults.configuration.location.root()
}

struct Failure: Error, Equatable {}

/// Code under test in another file than the tests, reaching for `Defaults.standard` through a default
/// argument, as a library's settings type does.
struct SettingsWithADefaultArgument {
    var defaults: Defaults = .standard
}

/// Code under test as an app's module declares it: an initializer of its own whose default argument
/// reaches for `Defaults.standard` (the caller evaluates it, at no line of the caller's).
struct SettingsWithAnInitializersDefaultArgument {
    let defaults: Defaults
    init(defaults: Defaults = .standard) { self.defaults = defaults }
}

/// Makes a ``SettingsWithADefaultArgument`` on a task of its own started here: that task's stack holds
/// no frame of the test's file, as when an app's code starts the task.
func settingsMadeOnATask() async -> SettingsWithADefaultArgument {
    let line = #line + 1
    let settings = await Task { SettingsWithADefaultArgument() }.value
    settingsMadeOnATaskLine.withLock { $0 = line }
    return settings
}

/// The line of ``settingsMadeOnATask()`` that makes the settings.
let settingsMadeOnATaskLine = Lock(0)

/// Runs the Swift Testing test `filter` of this test binary as a child process with `variable` set to
/// `value`, its home and configuration directories (`HOME`, `XDG_CONFIG_HOME`) in an empty temporary
/// directory, and checks that the test ran and that both directories stay empty.
func runThisTestBinary(filter: String, setting variable: String, to value: String) throws -> ProcessResult {
    try withTemporaryRoot { root in
        let home = root.appendingPathComponent("home")
        let config = root.appendingPathComponent("config")
        for directory in [home, config] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["LAYERED_DEFAULTS_HOME"] = nil
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = config.path
        environment[variable] = value
        let executable = try #require(Bundle.main.executableURL)
        let result = try run(
            executable: executable, ["--testing-library", "swift-testing", "--filter", filter], environment: environment)
        #expect((result.output + result.error).contains("\(filter)()"), "the probe ran: \(result.output + result.error)")
        #expect(entries(of: home).isEmpty, "\(entries(of: home))")
        #expect(entries(of: config).isEmpty, "\(entries(of: config))")
        return result
    }
}
