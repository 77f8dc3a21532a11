import Foundation
import LayeredDefaults
import LayeredDefaultsCompatibility
import LayeredDefaultsTesting
import PackageTestSupport
import Testing

@Suite struct IsolatedDefaultsTests {
    @Test func aFreshDomainInAPrivateRootThatIsRemovedAfterwards() throws {
        var seen: (root: URL, suiteName: String)?
        try withIsolatedDefaults { defaults, suiteName in
            let root = try #require(directory(of: defaults))
            seen = (root, suiteName)
            #expect(suiteName.hasPrefix(IsolatedDefaults.suiteNamePrefix))
            #expect(UUID(uuidString: String(suiteName.dropFirst(IsolatedDefaults.suiteNamePrefix.count))) != nil)
            #expect(defaults.suiteName == suiteName)
            #expect(try defaults.persistentValues().isEmpty)
            defaults.set("dark", forKey: "theme")
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("\(suiteName).sqlite3").path))
        }
        let root = try #require(seen?.root)
        #expect(!FileManager.default.fileExists(atPath: root.path))
    }

    @Test func twoCallsGetDifferentDomains() throws {
        let first = try withIsolatedDefaults { _, suiteName in suiteName }
        let second = try withIsolatedDefaults { _, suiteName in suiteName }
        #expect(first != second)
    }

    @Test func thePrivateRootIsRemovedWhenTheBodyThrows() throws {
        var seenRoot: URL?
        #expect(throws: Failure.self) {
            try withIsolatedDefaults { defaults, _ in
                seenRoot = directory(of: defaults)
                defaults.set(1, forKey: "a")
                throw Failure()
            }
        }
        let root = try #require(seenRoot)
        #expect(!FileManager.default.fileExists(atPath: root.path))
    }

    /// A store the body kept past its scope makes nothing again in the removed root: not a read that
    /// searches past its own domain, not a write. Failed before: the read made the root again, with an
    /// `NSGlobalDomain.sqlite3`, left behind in `$TMPDIR`.
    @Test func aStoreKeptPastItsScopeMakesNothingAgain() throws {
        let kept = try withIsolatedDefaults { defaults, _ in defaults }
        let root = try #require(directory(of: kept))
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(!FileManager.default.fileExists(atPath: root.path), "removed when the scope ended")
        #expect(try kept.value(forKey: "missing") == nil)
        #expect(throws: DefaultsError.self, "its root is not made again") { try kept.write(1, forKey: "k") }
        #expect(!FileManager.default.fileExists(atPath: root.path), "made again")
    }

    @Test func inASharedRootOnlyItsOwnDomainIsRemovedEvenWhenTheBodyThrows() throws {
        try withTemporaryRoot { shared in
            let neighbour = try Defaults(
                suiteName: "neighbour", configuration: .init(location: .directory(shared), arguments: []))
            neighbour.set("keep me", forKey: "note")
            try Defaults(suiteName: Defaults.globalDomain, configuration: .init(location: .directory(shared), arguments: []))
                .write(1, forKey: "shared")
            try Data("notes".utf8).write(to: shared.appendingPathComponent("notes.txt"))
            var ownName = ""
            #expect(throws: Failure.self) {
                try withIsolatedDefaults(.directory(shared)) { defaults, suiteName in
                    ownName = suiteName
                    #expect(directory(of: defaults)?.standardizedFileURL == shared.standardizedFileURL)
                    defaults.set("dark", forKey: "theme")
                    #expect(entries(of: shared).contains("\(suiteName).sqlite3-wal"), "the domain is open, in WAL mode")
                    // Files whose names merely start like the domain's are not the domain's.
                    try Data("x".utf8).write(to: shared.appendingPathComponent("\(suiteName).sqlite3.bak"))
                    try Data("x".utf8).write(to: shared.appendingPathComponent("\(suiteName)-other.sqlite3"))
                    throw Failure()
                }
            }
            #expect(!ownName.isEmpty)
            #expect(entries(of: shared).filter { $0.hasPrefix(ownName + ".sqlite3") } == ["\(ownName).sqlite3.bak"])
            #expect(entries(of: shared).contains("\(ownName)-other.sqlite3"))
            #expect(entries(of: shared).contains("neighbour.sqlite3"))
            #expect(entries(of: shared).contains("NSGlobalDomain.sqlite3"), "the shared global domain is left alone")
            #expect(try Data(contentsOf: shared.appendingPathComponent("notes.txt")) == Data("notes".utf8))
            #expect(neighbour.string(forKey: "note") == "keep me")
            let reopened = try Defaults(suiteName: "neighbour", configuration: .init(location: .directory(shared), arguments: []))
            #expect(try reopened.persistentValues() == ["note": "keep me"])
        }
    }

    /// In a shared root, a store the body kept past its scope keeps its files, and goes on working: deleting
    /// them would leave it using files that are gone. Once it is released, `LeftoverDomains` removes them.
    @Test func inASharedRootAStoreKeptPastItsScopeKeepsItsFiles() throws {
        try withTemporaryRoot { shared in
            var kept: Defaults? = nil
            let suiteName = try withIsolatedDefaults(.directory(shared)) { defaults, suiteName in
                try defaults.write("dark", forKey: "theme")
                kept = defaults
                return suiteName
            }
            #expect(entries(of: shared).contains("\(suiteName).sqlite3"), "\(entries(of: shared))")
            try kept?.write("light", forKey: "theme")
            #expect(try kept?.value(forKey: "theme") == "light")
            kept = nil
            #expect(try LeftoverDomains.remove(prefix: suiteName, in: shared, olderThan: .zero).map(\.name) == [suiteName])
            #expect(entries(of: shared).allSatisfy { !$0.hasPrefix(suiteName) }, "\(entries(of: shared))")
        }
    }

    @Test(arguments: [IsolatedDefaults.Storage.temporaryDirectory, .inMemory])
    func argumentsAreInjectedAndDefaultToNone(_ storage: IsolatedDefaults.Storage) throws {
        try withIsolatedDefaults(storage) { defaults, _ in
            #expect(defaults.volatileDomain(forName: Defaults.argumentDomain).isEmpty)
        }
        try withIsolatedDefaults(storage, arguments: ["app", "-theme", "light"]) { defaults, _ in
            defaults.set("dark", forKey: "theme")
            #expect(defaults.string(forKey: "theme") == "light")
            let stored = try defaults.persistentValue(forKey: "theme")
            #expect(stored == "dark")
        }
    }

    @Test func anInvalidPrefixIsRefusedBeforeAnythingIsTouched() throws {
        try withTemporaryRoot { shared in
            #expect(throws: DefaultsError.self) {
                try withIsolatedDefaults(.directory(shared), prefix: "../escape-") { _, _ in Issue.record("the body must not run")
                }
            }
            #expect(entries(of: shared).isEmpty)
        }
    }

    @Test func aCustomPrefixNamesTheDomain() throws {
        try withIsolatedDefaults(.inMemory, prefix: "MyAppTests.") { defaults, suiteName in
            #expect(suiteName.hasPrefix("MyAppTests."))
            #expect(defaults.suiteName == suiteName)
        }
    }

    @Test func inMemoryTouchesNoFile() throws {
        try withIsolatedDefaults(.inMemory) { defaults, suiteName in
            #expect(defaults.configuration.location == .inMemory)
            #expect(Location.default.root() == nil, "a store of the default location is in memory too")
            #expect(suiteName.hasPrefix(IsolatedDefaults.suiteNamePrefix))
            try defaults.write("dark", forKey: "theme")
            #expect(try defaults.persistentValues() == ["theme": "dark"])
        }
    }

    @Test func asyncFormsCleanUpToo() async throws {
        var seenRoot: URL?
        await #expect(throws: Failure.self) {
            try await withIsolatedDefaults { defaults, _ in
                seenRoot = directory(of: defaults)
                await Task.yield()
                defaults.set(1, forKey: "a")
                throw Failure()
            }
        }
        let root = try #require(seenRoot)
        #expect(!FileManager.default.fileExists(atPath: root.path))
        let value = try await withIsolatedDefaults(.inMemory) { defaults, _ in
            await Task.yield()
            defaults.set(2, forKey: "b")
            return defaults.integer(forKey: "b")
        }
        #expect(value == 2)
    }

    @MainActor @Test func asyncFormRunsOnTheCallersActor() async throws {
        var count = 0
        try await withIsolatedDefaults { defaults, _ in
            await Task.yield()
            count += 1  // main-actor state: compiles only because the body runs on the main actor
            defaults.set(count, forKey: "count")
        }
        #expect(count == 1)
    }
}
