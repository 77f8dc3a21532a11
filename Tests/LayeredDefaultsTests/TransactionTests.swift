import Foundation
import Testing
@testable import LayeredDefaults

/// The edges of a transaction: a body that swallows a failure, calls from inside a body, and the
/// check that decides whether the in-memory view may be patched after a commit.
@Suite struct TransactionTests {
    @Test func aBodyThatSwallowsAFailedStatementCommitsNothing() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("swallow", root: root)
            try defaults.write("before", forKey: "kept")
            try defaults.persistent.withConnectionForTesting { connection in
                let pages = try connection.integer("PRAGMA page_count")
                _ = try connection.integer("PRAGMA max_page_count = \(pages)")
            }
            let big = PreferenceValue.data(Data(repeating: 7, count: 64 * 1024))
            #expect(throws: DefaultsError.diskFull(suite: "swallow", key: nil)) {
                try defaults.transaction { domain in
                    try? domain.set(big, forKey: "big")     // fails: the disk is "full"; the body ignores it
                    try domain.set("after", forKey: "small")  // must not go through on its own
                }
            }
            #expect(try freshValues(of: root.appendingPathComponent("swallow.sqlite3")) == ["kept": "before"])
            #expect(try defaults.persistentValues() == ["kept": "before"])
        }
    }

    @Test func aWriteFromInsideABodyFailsTypedInsteadOfDeadlocking() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("nested", root: root)
            defaults.set("committed", forKey: "old")
            try defaults.transaction { domain in
                try domain.set("pending", forKey: "new")
                #expect(defaults.string(forKey: "old") == "committed", "a read from inside the body works")
                #expect(throws: DefaultsError.nestedTransaction(suite: "nested")) { try defaults.write("x", forKey: "other") }
            }
            #expect(try defaults.persistentValues() == ["old": "committed", "new": "pending"])
            #expect(defaults.string(forKey: "new") == "pending")
        }
    }

    @Test func onlyOneCommitTellsOursFromOursAndAnother() throws {
        try withTemporaryRoot { root in
            let store = try makeDefaults("commits", root: root).persistent
            let connection = try Connection(path: root.appendingPathComponent("commits.sqlite3").path, busyTimeoutMilliseconds: 5000)
            defer { connection.close() }
            let signal = ChangeSignal.open(connection: connection)
            func commit() throws { try connection.execute("INSERT OR REPLACE INTO preferences VALUES ('k', 'integer', random())") }
            let before = signal.fingerprint
            try commit()
            let once = signal.fingerprint
            #expect(signal.onlyOneCommit(between: before, and: once))
            try commit()
            try commit()
            #expect(!signal.onlyOneCommit(between: once, and: signal.fingerprint))
            #expect(store.fingerprint == signal.fingerprint, "the store sees the same header")
        }
    }

    struct Sample: CodablePreference { var ratio: Double }

    @Test func anUnencodableValueIsRefusedWithoutItsValue() throws {
        let defaults = try makeInMemoryDefaults()
        let key = Defaults.Key("sample", default: Sample(ratio: 0))
        #expect(throws: DefaultsError.unencodableValue(suite: "test.suite", key: "sample", type: "Sample")) {
            try defaults.set(Sample(ratio: .nan), for: key)
        }
        #expect(defaults.persistentValue(forKey: "sample") == nil)
    }
}
