import Foundation
import LayeredDefaults
import LayeredDefaultsCompatibility
import LayeredDefaultsTesting
import PackageTestSupport
import Testing
import ThemePreferences

/// No door to the default location reaches the real home in a test process, from any thread or task,
/// inside `.isolatedDefaults` or outside any scope: the test binary runs itself as a child, with `HOME`
/// and `XDG_CONFIG_HOME` in an empty temporary directory, and that stays empty.
@Suite struct EveryDoorChildProcessTests {
    /// Set in the child's environment to the probe it runs.
    static let probeVariable = "LAYERED_DEFAULTS_TESTING_DOOR_PROBE"
    static var probe: String? { ProcessInfo.processInfo.environment[probeVariable] }

    /// The suite every door opens.
    static let suite = "com.example.door"

    /// Opens every door of the default location, then prints what `context` saw: whether each store was
    /// a throwaway (another instance of the suite sees nothing of what was written).
    @Sendable static func openEveryDoor(from context: String) {
        Defaults.standard.set("dark", forKey: "theme")
        let opened = try? Defaults(suiteName: suite)
        try? opened?.write("v", forKey: "k")
        #if os(Linux)
            let imported = Result { try opened?.importUserDefaults(suiteName: suite) }
        #else
            let imported = "not on this platform"
        #endif
        try? ThemePreferences().save(.dark)
        let repaired = Result { try Defaults.Domain(suite).repair() }
        let backup = FileManager.default.temporaryDirectory.appendingPathComponent("door-\(UUID().uuidString).sqlite3")
        defer { unlink(backup.path) }
        let backedUp = Result { try Defaults.Domain(suite).backup(to: backup) }
        let restored = Result { try Defaults.Domain(suite).restore(from: backup) }
        let seen = Result { try Defaults(suiteName: suite).value(forKey: "k") }
        print(
            "door probe \(context): standard \(Defaults.standard.configuration.location), stored \(opened != nil), "
                + "another instance sees \(seen), import \(imported), repair \(repaired), backup \(backedUp), "
                + "restore \(restored)")
    }

    /// Runs ``openEveryDoor(from:)`` from a task, a detached task, a Dispatch queue and a thread, in turn.
    static func openEveryDoorFromEveryContext() async {
        await Task { openEveryDoor(from: "task") }.value
        await Task.detached { openEveryDoor(from: "detached task") }.value
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                openEveryDoor(from: "queue")
                done.resume()
            }
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                openEveryDoor(from: "thread")
                done.resume()
            }
        }
    }

    @Test(
        .isolatedDefaults,
        .enabled(
            if: probe == "scoped", "a probe: runs only in the child process this suite starts (its probe variable set to scoped)")
    ) func probeOpensEveryDoorUnderTheTrait() async {
        await Self.openEveryDoorFromEveryContext()
    }

    @Test(
        .enabled(
            if: probe == "unscoped",
            "a probe: runs only in the child process this suite starts (its probe variable set to unscoped)"))
    func probeOpensEveryDoorOutsideAnyScope() async {
        await Self.openEveryDoorFromEveryContext()
    }

    @Test(
        .isolatedDefaults,
        .enabled(
            if: probe == "quiet", "a probe: runs only in the child process this suite starts (its probe variable set to quiet)"))
    func probeReportsAnErrorQuietly() throws {
        try Defaults.standard.write("wide", forKey: "tabWidth")
        _ = Defaults.standard[Defaults.Key("tabWidth", default: 4)]
        #expect(IsolatedDefaults.reportedErrors.count == 1)
    }

    @Test(
        .isolatedDefaults(printingErrors: true),
        .enabled(
            if: probe == "aloud", "a probe: runs only in the child process this suite starts (its probe variable set to aloud)"))
    func probeReportsAnErrorAloud() throws {
        try Defaults.standard.write("wide", forKey: "tabWidth")
        _ = Defaults.standard[Defaults.Key("tabWidth", default: 4)]
        #expect(IsolatedDefaults.reportedErrors.count == 1)
    }

    @Test(arguments: ["scoped", "unscoped"]) func everyDoorFromEveryContextLeavesTheHomeEmpty(_ probe: String) throws {
        let name = probe == "scoped" ? "probeOpensEveryDoorUnderTheTrait" : "probeOpensEveryDoorOutsideAnyScope"
        let result = try runThisTestBinary(filter: name, setting: Self.probeVariable, to: probe)
        let output = result.output + result.error
        for context in ["task", "detached task", "queue", "thread"] {
            let line = try #require(
                result.output.split(separator: "\n").first { $0.hasPrefix("door probe \(context):") }, "\(output)")
            #expect(line.contains("stored true"), "\(line)")
            if probe == "unscoped" || context != "task" {
                #expect(line.contains("standard inMemory"), "\(line)")
                #expect(line.contains("another instance sees success(nil)"), "a throwaway store: \(line)")
            } else {
                #expect(line.contains("standard directory"), "a task sees the test's scope: \(line)")
            }
        }
        #expect(!result.succeeded, "a door outside a scope fails the run")
        #expect(output.contains("`Defaults.standard` was used in a test"), "\(output)")
        #expect(output.contains("A store of the default location (`Location.default`) was opened in a test"))
        #expect(output.contains("no running test is known on this thread"), "the detached task, queue and thread")
    }

    @Test func reportedErrorsArePrintedOnlyWhenAskedFor() throws {
        let quiet = try runThisTestBinary(filter: "probeReportsAnErrorQuietly", setting: Self.probeVariable, to: "quiet")
        #expect(quiet.succeeded, "\(quiet.output)")
        #expect(!quiet.error.contains("LayeredDefaults: "), "\(quiet.error)")
        let aloud = try runThisTestBinary(filter: "probeReportsAnErrorAloud", setting: Self.probeVariable, to: "aloud")
        #expect(aloud.succeeded, "\(aloud.output)")
        #expect(aloud.errorLines.filter { $0.hasPrefix("LayeredDefaults: ") }.count == 1, "\(aloud.error)")
    }
}
