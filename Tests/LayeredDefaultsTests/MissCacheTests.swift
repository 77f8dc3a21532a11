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

    @Test func theResolvedAnswersOfAbsentKeysAreBounded() throws {
        let defaults = try makeInMemoryDefaults()
        try defaults.write(1, forKey: "stored")
        // NB: the first search past the persistent domain opens the global domain, a change: answers found
        // before it are stale.
        #expect(try defaults.value(forKey: "opens.the.global.domain") == nil)
        #expect(try defaults.value(forKey: "stored") == 1)
        for index in 0..<(ResolvedAnswers.absentLimit + 100) {
            #expect(defaults.object(forKey: "missing.\(index)") == nil)
        }
        let answers = defaults.searchList.resolved.withLock { $0.answers }
        #expect(answers.count <= ResolvedAnswers.absentLimit + 2)
        #expect(answers["stored"]?.value == .some(1), "present answers are kept")
    }

    /// A write of the instance's own forgets the answer of the key it changed and keeps the others: a
    /// read after it sees the new value, and another key still costs one look-up.
    @Test func anOwnWriteKeepsTheOtherAnswers() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("test.answers", root: root)
            try defaults.write("a", forKey: "a")
            try defaults.write("b", forKey: "b")
            // NB: the first search past the persistent domain opens the global domain, a change.
            #expect(try defaults.value(forKey: "missing") == nil)
            #expect(try defaults.value(forKey: "a") == "a" && defaults.value(forKey: "b") == "b")
            #expect(try defaults.value(forKey: "missing") == nil)
            try defaults.write("a2", forKey: "a")
            #expect(defaults.searchList.resolved.withLock { $0.answers.keys.sorted() } == ["b", "missing"])
            #expect(try defaults.value(forKey: "a") == "a2")
            try defaults.write("new", forKey: "missing")
            #expect(try defaults.value(forKey: "missing") == "new")
            defaults.register(["r": 1])
            #expect(defaults.searchList.resolved.withLock { $0.answers.isEmpty }, "a registration forgets them all")
            #expect(try defaults.value(forKey: "r") == 1)
        }
    }

    /// A search remembered under the answers' own stamp (begun while it was current) is refused when the
    /// answers were patched or forgotten meanwhile: a commit of the instance's own during the search may
    /// have changed the very key, whose answer the search found before it.
    @Test func aSearchOverlappingAPatchIsNotRemembered() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("test.answers.epoch", root: root)
            try defaults.write("a", forKey: "a")
            #expect(try defaults.value(forKey: "missing") == nil)  // opens the global domain: a change
            #expect(try defaults.value(forKey: "a") == "a")
            let changes = defaults.searchList.changeCount
            let lookup = defaults.searchList.resolved.withLock { $0.answer(forKey: "b", changes: changes) }
            guard case .unanswered(.some(let epoch)) = lookup else {
                Issue.record("an unknown key under a current stamp is unanswered with the answers' epoch")
                return
            }
            // The commit lands while the search of "b" runs: the answers are patched.
            try defaults.write("b", forKey: "b")
            defaults.searchList.resolved.withLock { $0.remember(nil, forKey: "b", deep: true, under: .epoch(epoch)) }
            #expect(defaults.searchList.resolved.withLock { $0.answers["b"]?.value } == nil, "the overlapping search is refused")
            #expect(try defaults.value(forKey: "b") == "b")
            let current = defaults.searchList.changeCount
            guard
                case .unanswered(.some(let later)) = defaults.searchList.resolved.withLock({
                    $0.answer(forKey: "c", changes: current)
                })
            else {
                Issue.record("the stamp is current after the read")
                return
            }
            defaults.searchList.resolved.withLock { $0.remember(nil, forKey: "c", deep: true, under: .epoch(later)) }
            #expect(
                defaults.searchList.resolved.withLock { $0.answers["c"]?.value } == .some(nil),
                "an undisturbed search is remembered")
        }
    }

    /// Another instance's commit to the same file makes every answer stale.
    @Test func anotherInstancesCommitMakesTheAnswersStale() throws {
        try withTemporaryRoot { root in
            let first = try makeDefaults("test.answers", root: root)
            let second = try makeDefaults("test.answers", root: root, arguments: ["-x", "1"])
            try first.write("one", forKey: "k")
            #expect(try first.value(forKey: "k") == "one" && first.value(forKey: "other") == nil)
            try second.write("two", forKey: "k")
            try second.write("here", forKey: "other")
            #expect(try first.value(forKey: "k") == "two" && first.value(forKey: "other") == "here")
        }
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
