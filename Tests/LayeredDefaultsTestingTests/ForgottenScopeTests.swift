import Foundation
import LayeredDefaults
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaultsTesting

/// Outside an isolated scope, a store of the default location (not only `Defaults.standard`) is a
/// throwaway in-memory store, and the test fails once, at its own line, naming the call.
@Suite struct ForgottenScopeTests {
    @Test func aDefaultConfiguredStoreOutsideAScopeIsInMemoryAndFailsTheTest() throws {
        var opened: Defaults?
        let line = #line + 2
        let log = try expectIssues {
            opened = try Defaults(suiteName: "com.example.forgotten")
            try opened?.write("dark", forKey: "theme")
        }
        let store = try #require(opened)
        #expect(try store.value(forKey: "theme") == "dark")
        let again = try Defaults(suiteName: "com.example.forgotten")
        #expect(try again.value(forKey: "theme") == nil, "memory only: a second instance shares nothing")
        #expect(log.messages.count == 1, "\(log.messages)")
        let message = try #require(log.messages.first)
        #expect(message.contains("A store of the default location (`Location.default`) was opened in a test"))
        #expect(message.contains("use `.isolatedDefaults`"), "the Swift Testing helper")
        #expect(message.contains("aDefaultConfiguredStoreOutsideAScopeIsInMemoryAndFailsTheTest()"), "names the test")
        #expect(message.contains("through `Defaults.init(suiteName:configuration:)`"), "names the call")
        let location = try #require(log.locations.first ?? nil)
        #expect(location.fileName == "ForgottenScopeTests.swift")
        #expect(location.line == line, "points at the test's line")
    }

    @Test func repairBackupAndRestoreOutsideAScopeTouchNothing() throws {
        try withTemporaryRoot { directory in
            let backup = directory.appendingPathComponent("backup.sqlite3")
            var repaired: URL?? = .none
            var backupError: (any Error)?
            var restoreError: (any Error)?
            // NB: the calls' outcomes are checked outside `expectIssues`, which takes every issue for known.
            let log = try expectIssues {
                repaired = try Defaults.Domain("com.example.forgotten").repair()
                do { try Defaults.Domain("com.example.forgotten").backup(to: backup) } catch { backupError = error }
                do { try Defaults.Domain("com.example.forgotten").restore(from: backup) } catch { restoreError = error }
            }
            #expect(repaired == .some(nil), "nothing to repair in memory")
            #expect(backupError as? DefaultsError == .noSuchDomain(suite: "com.example.forgotten"))
            #expect(restoreError as? DefaultsError == .noSuchDomain(suite: "com.example.forgotten"))
            #expect(log.messages.count == 1, "once per test: \(log.messages)")
            #expect(log.messages.first?.contains("through `Defaults.Domain.repair()`") == true)
            #expect(entries(of: directory).isEmpty)
        }
    }

    @Test func aForgottenStoreIsReportedOncePerTest() throws {
        let log = try expectIssues {
            _ = Defaults.standard
            Defaults.standard.set(1, forKey: "a")
            _ = try Defaults(suiteName: "com.example.forgotten")
        }
        #expect(log.messages.count == 1, "\(log.messages)")
        #expect(log.messages.first?.contains("`Defaults.standard` was used in a test") == true, "the first use")
    }

    @Test func theReportPointsAtTheTestsLineNotAtTheLibrarysDefaultArgument() throws {
        var settings: SettingsWithADefaultArgument?
        let line = #line + 1
        let log = expectIssues { settings = SettingsWithADefaultArgument() }
        #expect(settings?.defaults.configuration.location == .inMemory)
        let location = try #require(log.locations.first ?? nil)
        #expect(location.fileName == "ForgottenScopeTests.swift", "not TestSupport.swift, where the default argument is")
        #expect(location.line == line)
    }

    /// An app's initializer with a default argument: the test's call of it has no line of its own (the
    /// compiler gives it the argument's, in the app's file), so the report points at the test's
    /// declaration, in the test's file, not at the app's line.
    @Test func throughAnInitializersDefaultArgumentTheReportPointsAtTheTest() throws {
        var settings: SettingsWithAnInitializersDefaultArgument?
        let declaration = try #require(Test.current?.sourceLocation)
        let log = expectIssues { settings = SettingsWithAnInitializersDefaultArgument() }
        #expect(settings?.defaults.configuration.location == .inMemory)
        let location = try #require(log.locations.first ?? nil)
        #expect(location.fileName == "ForgottenScopeTests.swift", "not TestSupport.swift, where the default argument is")
        #expect(location.line == declaration.line)
    }

    /// Where the test's file is not on the stack (a task the app's code started), the report points at
    /// the first line outside the library the backtrace shows, here the line that made the settings
    /// (the default argument's own code has no line).
    @Test func withoutTheTestsFileOnTheStackTheReportPointsAtTheFirstCallerOutsideTheLibrary() async throws {
        var settings: SettingsWithADefaultArgument?
        let log = await expectIssues { settings = await settingsMadeOnATask() }
        #expect(settings?.defaults.configuration.location == .inMemory)
        let location = try #require(log.locations.first ?? nil)
        #expect(location.fileName == "TestSupport.swift")
        #expect(location.line == settingsMadeOnATaskLine.withLock { $0 })
    }

    @Test func insideAScopeNothingIsReported() async throws {
        try await withIsolatedDefaults(.inMemory) { defaults, _ in
            _ = try Defaults(suiteName: "com.example.inside")
            #expect(Defaults.standard === defaults)
            async let fromChild = Defaults.standard
            #expect(await fromChild === defaults)
        }
    }
}
