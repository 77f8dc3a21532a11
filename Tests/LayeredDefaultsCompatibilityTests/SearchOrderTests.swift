import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// The search list: arguments, this domain, added suites (newest first), global, registration.
@Suite struct SearchOrderTests {
    /// Opening a store does not open the global domain: the first read that searches past the
    /// persistent domain looks for it, and a read never creates its file.
    @Test func theGlobalDomainIsLookedForAtTheFirstReadThatNeedsIt() throws {
        try withTemporaryRoot { root in
            let global = root.appendingPathComponent("NSGlobalDomain.sqlite3").path
            let defaults = try makeDefaults("app", root: root)
            try defaults.write("mine", forKey: "k")
            #expect(try defaults.value(forKey: "k") == "mine")
            #expect(!FileManager.default.fileExists(atPath: global))
            #expect(try defaults.value(forKey: "absent") == nil)
            #expect(!FileManager.default.fileExists(atPath: global))
            #expect(defaults.observedStores.map(\.name) == ["app", Defaults.globalDomain], "its stand-in is watched")
        }
    }

    /// The failure of the global domain reaches an error handler that reads the same instance (a logger
    /// asking a "verbose" key) without deadlocking: it is reported with no lock held.
    @Test func anErrorHandlerMayReadTheInstanceWhoseGlobalDomainFailed() throws {
        try withTemporaryRoot { root in
            try Data(String(repeating: "not a database ", count: 8).utf8).write(
                to: root.appendingPathComponent("NSGlobalDomain.sqlite3"))
            let instance = Lock<Defaults?>(nil)
            let handled = Lock(0)
            let defaults = try makeDefaults(
                "app", root: root,
                errorHandler: { _ in
                    handled.withLock { $0 += 1 }
                    _ = instance.withLock { $0 }?.object(forKey: "verbose")
                })
            instance.withLock { $0 = defaults }
            let done = DispatchSemaphore(value: 0)
            Thread {
                _ = defaults.object(forKey: "absent")
                done.signal()
            }.start()
            // NB: not a timing assertion: a deadlocked read never returns; 60 s only bounds the wait for it.
            #expect(done.wait(timeout: .now() + .seconds(60)) == .success, "the first miss deadlocked in the error handler")
            #expect(handled.withLock { $0 } == 1)
            instance.withLock { $0 = nil }
        }
    }

    /// A global domain that cannot be opened is reported once, at the first read that needs it, and
    /// searched as an empty domain: the instance's own values and registered defaults still read.
    @Test func aGlobalDomainThatCannotBeOpenedIsReportedOnceAndSkipped() throws {
        try withTemporaryRoot { root in
            let global = root.appendingPathComponent("NSGlobalDomain.sqlite3")
            try Data("not a database, and long enough to have a header of sorts....................".utf8).write(to: global)
            let reported = ReportedErrors()
            let defaults = try makeDefaults("app", root: root, errorHandler: reported.record)
            try defaults.write("mine", forKey: "k")
            defaults.register(defaults: ["registered": 1])
            #expect(try defaults.value(forKey: "k") == "mine")
            #expect(reported.all.isEmpty, "opening and reading the own domain do not touch the global domain")
            DispatchQueue.concurrentPerform(iterations: 8) { _ in #expect((try? defaults.value(forKey: "absent")) == .some(nil)) }
            #expect(try defaults.value(forKey: "registered") == 1)
            #expect(try defaults.value(forKey: "absent") == nil)
            #expect(reported.all.count == 1, "threads that need it at once open it once")
            guard case .corruptStore(let path, _)? = reported.all.first else {
                Issue.record("unexpected \(reported.all)")
                return
            }
            #expect(path.hasSuffix("NSGlobalDomain.sqlite3"))
            #expect(try Data(contentsOf: global).starts(with: Data("not a database".utf8)), "the file is left as it was")
        }
    }

    @Test func everyDomainPopulatedFirstMatchWins() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("app", root: root, arguments: ["-key", "argument"])
            let older = try makeDefaults("suite.older", root: root)
            let newer = try makeDefaults("suite.newer", root: root)
            let global = try makeDefaults(Defaults.globalDomain, root: root)
            for (store, value) in [(defaults, "app"), (older, "older"), (newer, "newer"), (global, "global")] {
                try store.write(.string(value), forKey: "key")
            }
            defaults.register(defaults: ["key": "registered"])
            defaults.addSuite(named: "suite.older")
            defaults.addSuite(named: "suite.newer")

            #expect(defaults.string(forKey: "key") == "argument")
            defaults.setVolatileDomain([:], forName: Defaults.argumentDomain)
            #expect(defaults.string(forKey: "key") == "app")
            defaults.removeObject(forKey: "key")
            #expect(defaults.string(forKey: "key") == "newer")
            try newer.write(nil, forKey: "key")
            #expect(defaults.string(forKey: "key") == "older")
            defaults.removeSuite(named: "suite.older")
            #expect(defaults.string(forKey: "key") == "global")
            try global.write(nil, forKey: "key")
            #expect(defaults.string(forKey: "key") == "registered")
            #expect(defaults.suiteNames == ["suite.newer"])
        }
    }

    @Test func registeredDefaultShowsThroughAfterRemoval() throws {
        let defaults = try makeInMemoryDefaults()
        defaults.register(defaults: ["volume": 5])
        defaults.set(9, forKey: "volume")
        #expect(defaults.integer(forKey: "volume") == 9)
        defaults.removeObject(forKey: "volume")
        #expect(defaults.integer(forKey: "volume") == 5)
        #expect(try defaults.persistentValue(forKey: "volume") == nil)
    }

    @Test func notSetIsNotFalse() throws {
        let defaults = try makeInMemoryDefaults()
        #expect(try defaults.persistentValue(forKey: "flag") == nil)
        defaults.set(false, forKey: "flag")
        #expect(try defaults.persistentValue(forKey: "flag") == .bool(false))
    }

    @Test func registrationAndSuitesBelongToTheInstance() throws {
        try withTemporaryRoot { root in
            let first = try makeDefaults("app", root: root)
            let second = try makeDefaults("app", root: root)
            try makeDefaults("extra", root: root).write("from-suite", forKey: "k")
            first.register(defaults: ["r": 1])
            first.addSuite(named: "extra")
            #expect(first.integer(forKey: "r") == 1)
            #expect(second.object(forKey: "r") == nil)
            #expect(first.string(forKey: "k") == "from-suite")
            #expect(second.string(forKey: "k") == nil)
        }
    }

    @Test func addedSuitesAreReadOnlyThroughTheInstance() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("app", root: root)
            let suite = try makeDefaults("shared", root: root)
            try suite.write("suite", forKey: "k")
            defaults.addSuite(named: "shared")
            defaults.set("mine", forKey: "k")
            #expect(suite.string(forKey: "k") == "suite")
            #expect(try defaults.persistentValue(forKey: "k") == "mine")
        }
    }

    @Test func dictionaryRepresentationMergesTheWholeList() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("app", root: root, arguments: ["-a", "arg"])
            try makeDefaults(Defaults.globalDomain, root: root).write("global", forKey: "g")
            defaults.register(defaults: ["r": "registered", "a": "registered"])
            defaults.set("app", forKey: "p")
            let merged = try defaults.resolvedValues()
            #expect(merged == ["a": "arg", "g": "global", "r": "registered", "p": "app"])
            #expect(defaults.dictionaryRepresentation().count == 4)
        }
    }

    @Test func persistentDomainHoldsOnlyWhatIsStored() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("app", root: root, arguments: ["-a", "arg"])
            defaults.register(defaults: ["r": 1])
            #expect(defaults.persistentDomain(forName: "app") == nil)
            defaults.set(2, forKey: "p")
            #expect(defaults.persistentDomain(forName: "app")?.keys.sorted() == ["p"])
            #expect(defaults.persistentDomain(forName: "never.created") == nil)
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("never.created.sqlite3").path))
        }
    }

    @Test func volatileDomains() throws {
        let defaults = try makeInMemoryDefaults(arguments: ["-x", "1"])
        defaults.setVolatileDomain(["v": true], forName: "custom")
        #expect(defaults.volatileDomainNames == [Defaults.argumentDomain, Defaults.registrationDomain, "custom"])
        #expect(defaults.volatileDomain(forName: "custom")["v"] as? Bool == true)
        #expect(defaults.object(forKey: "v") == nil, "custom volatile domains are not searched")
        #expect(defaults.volatileDomain(forName: Defaults.argumentDomain)["x"] as? String == "1")
        defaults.removeVolatileDomain(forName: "custom")
        #expect(defaults.volatileDomainNames == [Defaults.argumentDomain, Defaults.registrationDomain])
    }

    @Test func changeNotificationIsPostedForEveryChange() async throws {
        let defaults = try Defaults(
            suiteName: "test.suite", configuration: .init(location: .inMemory, arguments: [], postsChangeNotifications: true))
        let posted = changeNotifications(of: defaults) {
            defaults.set(1, forKey: "a")
            defaults.removeObject(forKey: "a")
            defaults.register(defaults: ["b": 1])
            defaults.setPersistentDomain(["c": 1], forName: defaults.suiteName)
        }
        #expect(posted == 4)
    }

    @Test func changeNotificationIsOffByDefault() throws {
        let defaults = try makeInMemoryDefaults()
        let posted = changeNotifications(of: defaults) {
            defaults.set(1, forKey: "a")
            defaults.register(defaults: ["b": 1])
        }
        #expect(posted == 0)
    }

    /// A suite added with `addSuite(named:)` after creation is searched before `Configuration.suites`,
    /// and is never written either.
    @Test func addedSuitesComeBeforeConfiguredOnes() throws {
        try withTemporaryRoot { root in
            try makeDefaults("first", root: root).write("from first", forKey: "k")
            try makeDefaults("added", root: root).write("from added", forKey: "k")
            let defaults = try Defaults(
                suiteName: "app", configuration: .init(location: .directory(root), arguments: [], suites: ["first"]))
            #expect(try defaults.value(forKey: "k") == "from first")
            defaults.addSuite(named: "added")
            #expect(defaults.suiteNames == ["added", "first"])
            #expect(try defaults.value(forKey: "k") == "from added")
            try defaults.write("mine", forKey: "k")
            #expect(
                try makeDefaults("added", root: root).persistentValue(forKey: "k") == "from added", "suites are never written")
        }
    }
}
