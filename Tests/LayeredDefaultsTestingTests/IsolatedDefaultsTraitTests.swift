import Foundation
import LayeredDefaults
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaultsTesting

@Suite struct IsolatedDefaultsTraitTests {
    @Test(.isolatedDefaults) func standardIsAFreshStoreOfTheTestsOwn() throws {
        let standard = Defaults.standard
        #expect(standard.suiteName.hasPrefix(IsolatedDefaults.suiteNamePrefix))
        #expect(standard === Defaults.standard, "one store for the whole test")
        #expect(try standard.persistentValues().isEmpty)
        let root = try #require(directory(of: standard))
        #expect(root.lastPathComponent.hasPrefix("LayeredDefaultsTesting-root-"))
        Defaults.standard.set("dark", forKey: "theme")
        #expect(try standard.persistentValue(forKey: "theme") == "dark")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("\(standard.suiteName).sqlite3").path))
    }

    @Test(.isolatedDefaults) func theArgumentDomainIsEmpty() throws {
        #expect(try Defaults.standard.value(forKey: "testing-library") == nil)
        #expect(Defaults.standard.volatileDomain(forName: Defaults.argumentDomain).isEmpty)
    }

    @Test(.isolatedDefaults(.inMemory, arguments: ["-fontSize", "20"])) func inMemoryWithArguments() throws {
        #expect(Defaults.standard.configuration.location == .inMemory)
        #expect(Defaults.standard.integer(forKey: "fontSize") == 20)
    }

    @Test(.isolatedDefaults) func childTasksSeeTheTestsStore() async throws {
        let own = Defaults.standard
        async let fromChild = Defaults.standard
        let fromTask = await Task { Defaults.standard }.value
        #expect(await fromChild === own)
        #expect(fromTask === own)
    }

    /// Each case writes its own value to the same key and reads only that back: cases run in parallel.
    @Test(.isolatedDefaults, arguments: 0..<8) func everyCaseGetsItsOwnStore(_ value: Int) throws {
        #expect(try Defaults.standard.persistentValues().isEmpty)
        try Defaults.standard.write(.integer(value), forKey: "shared")
        #expect(try Defaults.standard.persistentValues() == ["shared": .integer(value)])
    }

    @Test func theStoreIsRemovedAfterTheTestEvenWhenItThrows() async throws {
        let seen = Lock<URL?>(nil)
        let test = try #require(Test.current)
        await #expect(throws: Failure.self) {
            try await IsolatedDefaultsTrait.isolatedDefaults.provideScope(for: test, testCase: Test.Case.current) {
                seen.withLock { $0 = directory(of: Defaults.standard) }
                Defaults.standard.set(1, forKey: "a")
                throw Failure()
            }
        }
        let root = try #require(seen.withLock { $0 })
        #expect(!FileManager.default.fileExists(atPath: root.path))
    }

    /// A test that fails by an expectation (nothing thrown) has its store removed too.
    @Test func theStoreIsRemovedAfterATestThatFails() async throws {
        let seen = Lock<URL?>(nil)
        let test = try #require(Test.current)
        await withKnownIssue("the test's own failure, provoked") {
            try await IsolatedDefaultsTrait.isolatedDefaults.provideScope(for: test, testCase: Test.Case.current) {
                seen.withLock { $0 = directory(of: Defaults.standard) }
                Defaults.standard.set(1, forKey: "a")
                Issue.record("the test fails")
            }
        }
        let root = try #require(seen.withLock { $0 })
        #expect(!FileManager.default.fileExists(atPath: root.path))
    }

    @Test func standardOutsideAScopeFailsTheTestAndWritesNowhere() throws {
        var used: Defaults?
        let line = #line + 2
        let log = expectIssues {
            used = Defaults.standard
            used?.set("dark", forKey: "theme")
        }
        #expect(log.messages.count == 1)
        let message = try #require(log.messages.first)
        #expect(message.contains("`Defaults.standard` was used in a test; inject a store or use `.isolatedDefaults`"))
        #expect(message.contains("standardOutsideAScopeFailsTheTestAndWritesNowhere()"), "names the test")
        let location = try #require(log.locations.first ?? nil)
        #expect(location.fileName == "IsolatedDefaultsTraitTests.swift")
        #expect(location.line == line, "points at the call site")
        #expect(message.contains("IsolatedDefaultsTraitTests.swift:\(line):"), "names the call site")
        let store = try #require(used)
        #expect(store.configuration.location == .inMemory)
        #expect(store.suiteName.hasPrefix(IsolatedDefaults.suiteNamePrefix))
    }

    /// In a given directory, the test's own domain is removed afterwards, and nothing else there.
    @Test func inAGivenDirectoryOnlyTheTestsDomainIsRemoved() async throws {
        let test = try #require(Test.current)
        try await withTemporaryRoot { shared in
            try Data("notes".utf8).write(to: shared.appendingPathComponent("notes.txt"))
            try Defaults(suiteName: Defaults.globalDomain, configuration: .init(location: .directory(shared), arguments: []))
                .write(1, forKey: "shared")
            let suiteName = Lock("")
            try await IsolatedDefaultsTrait.isolatedDefaults(.directory(shared)).provideScope(
                for: test, testCase: Test.Case.current
            ) {
                suiteName.withLock { $0 = Defaults.standard.suiteName }
                #expect(directory(of: Defaults.standard)?.standardizedFileURL == shared.standardizedFileURL)
                Defaults.standard.set("dark", forKey: "theme")
                #expect(Defaults.standard.object(forKey: "shared") as? Int == 1, "the global domain is searched")
            }
            let ownName = suiteName.withLock { $0 }
            #expect(ownName.hasPrefix(IsolatedDefaults.suiteNamePrefix))
            #expect(!entries(of: shared).contains { $0.hasPrefix(ownName) })
            #expect(entries(of: shared).contains("NSGlobalDomain.sqlite3"), "the shared global domain is left alone")
            #expect(try Data(contentsOf: shared.appendingPathComponent("notes.txt")) == Data("notes".utf8))
        }
    }

    @Test(arguments: [IsolatedDefaults.Storage.temporaryDirectory, .inMemory])
    func withIsolatedDefaultsBindsStandardToo(_ storage: IsolatedDefaults.Storage) throws {
        try withIsolatedDefaults(storage) { defaults, _ in
            #expect(Defaults.standard === defaults)
        }
    }
}

@Suite(.isolatedDefaults) struct IsolatedDefaultsSuiteTraitTests {
    @Test func first() throws {
        #expect(try Defaults.standard.persistentValues().isEmpty)
        Defaults.standard.set("first", forKey: "who")
    }

    @Test func second() throws {
        #expect(try Defaults.standard.persistentValues().isEmpty)
        Defaults.standard.set("second", forKey: "who")
    }
}

/// A test that writes through `Defaults.standard` leaves nothing in the real root: the test binary runs
/// itself as a child, with `HOME` and `XDG_CONFIG_HOME` in a temporary directory, and that stays empty.
@Suite struct StandardInAChildProcessTests {
    /// Set in the child's environment to the probe it runs.
    static let probeVariable = "LAYERED_DEFAULTS_TESTING_PROBE"
    static var probe: String? { ProcessInfo.processInfo.environment[probeVariable] }

    @Test(
        .isolatedDefaults,
        .enabled(
            if: probe == "scoped", "a probe: runs only in the child process this suite starts (its probe variable set to scoped)")
    ) func probeWritesUnderTheTrait() throws {
        try Defaults.standard.write("dark", forKey: "theme")
        #expect(try Defaults.standard.persistentValue(forKey: "theme") == "dark")
    }

    @Test(
        .enabled(
            if: probe == "unscoped",
            "a probe: runs only in the child process this suite starts (its probe variable set to unscoped)"))
    func probeWritesOutsideAnyScope() throws {
        Defaults.standard.set("dark", forKey: "theme")
    }

    @Test(arguments: ["scoped", "unscoped"]) func aTestWritingThroughStandardLeavesNoFileInTheRealRoot(_ probe: String) throws {
        let name = probe == "scoped" ? "probeWritesUnderTheTrait" : "probeWritesOutsideAnyScope"
        let result = try runThisTestBinary(filter: name, setting: Self.probeVariable, to: probe)
        let output = result.output + result.error
        if probe == "scoped" {
            #expect(result.succeeded, "\(output)")
        } else {
            #expect(!result.succeeded)
            #expect(output.contains("`Defaults.standard` was used in a test; inject a store or use `.isolatedDefaults`"))
        }
    }
}

/// The Foundation import's default file is in the test's own directory, never the user's real home.
@Suite struct FoundationImportIsolationTests {
    @Test(.isolatedDefaults) func theImportReadsTheTestsDirectory() throws {
        let file = Defaults.userDefaultsFile(suiteName: "com.example.imported")
        let home = ProcessInfo.processInfo.environment["HOME"] ?? "/root"
        #expect(!file.path.hasPrefix(home + "/.config"), "\(file.path)")
        #expect(try Defaults.standard.importUserDefaults(suiteName: "com.example.imported") == .noFile)
        try PreferenceValue.propertyListData(["k": 1], format: .xml).write(to: file)
        #expect(try Defaults.standard.importUserDefaults(suiteName: "com.example.fixture") == .noFile)
        try PreferenceValue.propertyListData(["k": 1], format: .xml).write(
            to: Defaults.userDefaultsFile(suiteName: "com.example.fixture"))
        let fresh = try Defaults(suiteName: "com.example.fixture")
        #expect(try fresh.importUserDefaults(suiteName: "com.example.fixture") == .imported(keys: ["k"]))
    }
}
