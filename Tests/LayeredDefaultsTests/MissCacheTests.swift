import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// Reads that find nothing in the persistent domain: what is remembered about them stays bounded and
/// never outlives a change.
@Suite struct MissCacheTests {
    @Test func viewForgetsAbsentKeysPastItsLimit() {
        var view = CachedView(isComplete: false, fingerprint: .init())
        view.remember(.integer(1), forKey: "stored", readIn: view.generation)
        for index in 0..<(CachedView.absentLimit + 100) {
            view.remember(nil, forKey: "missing.\(index)", readIn: view.generation)
        }
        #expect(view.absent.count <= CachedView.absentLimit)
        #expect(view.values["stored"] == .integer(1), "stored values are kept")
    }

    @Test func fallThroughCacheIsBounded() throws {
        let defaults = try makeInMemoryDefaults()
        for index in 0..<(FallThroughCache.limit + 100) {
            #expect(defaults.object(forKey: "missing.\(index)") == nil)
        }
        #expect(defaults.searchList.fallThrough.withLock { $0.entries.count } <= FallThroughCache.limit)
    }

    @Test func missIsForgottenWhenSearchedDomainsChange() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("test.miss", root: root)
            #expect(defaults.object(forKey: "k") == nil)
            defaults.register(defaults: ["k": "registered"])
            #expect(defaults.string(forKey: "k") == "registered")
            // Another instance (its own registration) writes the global domain: this one sees it.
            let other = try makeDefaults("test.other", root: root)
            try other.replacePersistentValues(["k": .string("global")], forName: Defaults.globalDomain)
            #expect(defaults.string(forKey: "k") == "global")
            try other.replacePersistentValues([:], forName: Defaults.globalDomain)
            #expect(defaults.string(forKey: "k") == "registered")
        }
    }

    @Test func missIsForgottenWhenASuiteIsAdded() throws {
        try withTemporaryRoot { root in
            let suite = try makeDefaults("test.suite2", root: root)
            suite.set("suite", forKey: "k")
            let defaults = try makeDefaults("test.miss", root: root)
            #expect(defaults.object(forKey: "k") == nil)
            defaults.addSuite(named: "test.suite2")
            #expect(defaults.string(forKey: "k") == "suite")
        }
    }
}
