import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// What the in-memory view of a domain keeps: a whole domain read once is held once, shared with the
/// dictionary the read returned, never copied.
@Suite struct ViewMemoryTests {
    /// The address of a dictionary's storage: two dictionaries with the same address share one copy.
    ///
    /// NB: a `Dictionary` is a single reference to its storage (checked by its size), so its bits are that address.
    func storage(of dictionary: [String: PreferenceValue]) throws -> UInt {
        try #require(MemoryLayout<[String: PreferenceValue]>.size == MemoryLayout<UInt>.size)
        return unsafeBitCast(dictionary, to: UInt.self)
    }

    @Test func completeViewKeepsTheDictionaryItWasGiven() throws {
        let values = Dictionary(uniqueKeysWithValues: (0..<100).map { ("k\($0)", PreferenceValue.integer($0)) })
        var view = CachedView(isComplete: false, fingerprint: .init())
        view.remember(nil, forKey: "gone", readIn: view.generation)
        view.rememberAll(values, readIn: view.generation)
        #expect(try storage(of: view.values) == storage(of: values))
        #expect(view.lookUp("k7", current: .init()) == .known(.integer(7)))
        #expect(view.lookUp("gone", current: .init()) == .known(nil))
        #expect(view.lookUp("never.stored", current: .init()) == .known(nil), "complete: a key not held is absent")
        #expect(view.absent.isEmpty)
    }

    @Test func absentKeysAreKeptApartFromValues() {
        var view = CachedView(isComplete: false, fingerprint: .init())
        view.remember(nil, forKey: "k", readIn: view.generation)
        #expect(view.lookUp("k", current: .init()) == .known(nil))
        view.remember(.string("v"), forKey: "k", readIn: view.generation)
        #expect(view.lookUp("k", current: .init()) == .known(.string("v")))
        #expect(view.absent.isEmpty, "a key stored again is no longer known absent")
        #expect(view.lookUp("other", current: .init()) == .unknown, "incomplete: an unknown key must be read")
    }

    @Test func resolvedValuesShareTheViewOfTheOnlyDomainHoldingAny() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("test.memory", root: root)
            try defaults.replacePersistentValues(Dictionary(uniqueKeysWithValues: (0..<100).map { ("k\($0)", .integer($0)) }))
            let resolved = try defaults.resolvedValues()
            #expect(resolved.count == 100)
            #expect(try storage(of: resolved) == storage(of: defaults.persistentStoreForTesting.viewValuesForTesting))
        }
    }

    /// A value read through an instance is held once: its resolved answers keep it, the domain's view
    /// does not keep it again.
    @Test func aReadRememberedInTheAnswersIsNotKeptTwice() throws {
        try withTemporaryRoot { root in
            // NB: written through an instance let go first: its commit would have put the value in the view.
            try makeDefaults("test.memory.once", root: root).write(1, forKey: "a")
            let reader = try makeDefaults("test.memory.once", root: root)
            #expect(reader.persistentStoreForTesting.viewValuesForTesting.isEmpty)
            #expect(try reader.value(forKey: "a") == 1)
            #expect(try reader.value(forKey: "a") == 1)
            #expect(reader.searchList.resolved.withLock { $0.answers["a"]?.value } == .some(1))
            #expect(reader.persistentStoreForTesting.viewValuesForTesting["a"] == nil)
        }
    }
}
