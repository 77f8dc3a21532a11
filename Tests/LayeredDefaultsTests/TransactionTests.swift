import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Synchronization
import Testing

@testable import LayeredDefaults

/// The edges of a transaction: a body that swallows a failure, calls from inside a body, and the
/// check that decides whether the in-memory view may be patched after a commit.
@Suite struct TransactionTests {
    @Test func aBodyThatSwallowsAFailedStatementCommitsNothing() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("swallow", root: root)
            try defaults.write("before", forKey: "kept")
            try defaults.persistentStoreForTesting.withConnectionForTesting { connection in
                let pages = try connection.integer("PRAGMA page_count")
                _ = try connection.integer("PRAGMA max_page_count = \(pages)")
            }
            let big = PreferenceValue.data(Data(repeating: 7, count: 64 * 1024))
            #expect(throws: DefaultsError.diskFull(suite: "swallow", key: nil)) {
                try defaults.transaction { domain in
                    try? domain.write(big, forKey: "big")  // fails: the disk is "full"; the body ignores it
                    try domain.write("after", forKey: "small")  // must not go through on its own
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
                try domain.write("pending", forKey: "new")
                #expect(defaults.string(forKey: "old") == "committed", "a read from inside the body works")
                #expect(throws: DefaultsError.nestedTransaction(suite: "nested")) { try defaults.write("x", forKey: "other") }
                // NB: the message names the body's method, which this call keeps in step with the API.
                #expect(DefaultsError.nestedTransaction(suite: "nested").description.contains("`write(_:forKey:)`"))
                try domain.write("instead", forKey: "other")
            }
            #expect(try defaults.persistentValues() == ["old": "committed", "new": "pending", "other": "instead"])
            #expect(defaults.string(forKey: "new") == "pending")
        }
    }

    /// A ring of `size` threads, each in a transaction of its own suite, each reading (once all are
    /// inside) a key of the next one's suite: every such read is refused at once, naming both suites, and
    /// every transaction rolls back. Nothing waits.
    ///
    /// NB: before store locks were leaves, the threads waited for each other for good (then a wait-for
    /// graph refused one of them), and took with them every thread that later needed one of the stores.
    @Test(arguments: [2, 3]) func transactionsReachingEachOthersSuiteAreRefusedAtOnce(size: Int) throws {
        try withTemporaryRoot { root in
            let stores = try (0..<size).map { try makeDefaults("ring\($0)", root: root) }
            let allInside = DispatchGroup()
            let ended = DispatchGroup()
            let outcomes = Lock<[Int: Result<Void, any Error>]>([:])
            for _ in 0..<size { allInside.enter() }
            for index in 0..<size {
                ended.enter()
                let (mine, next) = (stores[index], stores[(index + 1) % size])
                Thread {
                    let outcome = Result {
                        try mine.transaction { domain in
                            try domain.write(.string("written"), forKey: "k")
                            allInside.leave()
                            allInside.wait()
                            _ = try next.value(forKey: "unread")
                        }
                    }
                    outcomes.withLock { $0[index] = outcome }
                    ended.leave()
                }.start()
            }
            // NB: not a timing assertion: deadlocked threads never end; 60 s bounds the wait.
            try #require(ended.wait(timeout: .now() + 60) == .success, "the ring of transactions deadlocked")
            let results = outcomes.withLock { $0 }
            #expect(results.count == size)
            for (index, result) in results {
                let (mine, next) = ("ring\(index)", "ring\((index + 1) % size)")
                #expect(throws: DefaultsError.otherSuiteInTransaction(suite: next, transactionSuite: mine)) { try result.get() }
                #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("\(mine).sqlite3").path))
            }
        }
    }

    /// From inside a body, every door to another writable suite is refused at once, naming both suites,
    /// whether or not that suite's view holds the key: a read, a write, its transaction, a read through
    /// this instance that falls through to a suite or to the global domain. After the body, all work.
    @Test func aBodyReachesOnlyItsOwnDomain() throws {
        try withTemporaryRoot { root in
            let other = try makeDefaults("other", root: root)
            try other.write("cached", forKey: "cached")
            #expect(try other.value(forKey: "cached") == "cached")  // in its view
            try makeDefaults(Defaults.globalDomain, root: root).write("global", forKey: "shared")
            let mine = try Defaults(
                suiteName: "mine",
                configuration: .init(location: .directory(root), arguments: [], suites: ["other"], systemDirectories: []))
            try mine.write("own", forKey: "own")
            let refusedBy = { (suite: String) in DefaultsError.otherSuiteInTransaction(suite: suite, transactionSuite: "mine") }
            try mine.transaction { domain in
                #expect(try mine.value(forKey: "own") == "own", "its own domain answers")
                #expect(throws: refusedBy("other")) { try other.value(forKey: "cached") }
                #expect(throws: refusedBy("other")) { try other.value(forKey: "unread") }
                #expect(throws: refusedBy("other")) { try other.write("x", forKey: "k") }
                #expect(throws: refusedBy("other")) { try other.transaction { _ in } }
                #expect(throws: refusedBy("other")) { try mine.value(forKey: "cached") }
                try domain.write("set", forKey: "own")
            }
            #expect(try mine.value(forKey: "cached") == "cached")
            #expect(try mine.value(forKey: "shared") == "global")
            let alone = try makeDefaults("alone", root: root)
            try alone.transaction { _ in
                let refused = DefaultsError.otherSuiteInTransaction(suite: Defaults.globalDomain, transactionSuite: "alone")
                #expect(throws: refused) { try alone.value(forKey: "shared") }
            }
            #expect(try mine.value(forKey: "own") == "set")
            #expect(try other.persistentValues() == ["cached": "cached"])
        }
    }

    /// The managed domain cannot be written, so it runs no transaction and its lock is a leaf: a body
    /// may read it (a forced key reads as forced).
    @Test func aBodyMayReadTheManagedDomain() throws {
        try withTemporaryRoot { root in
            let managedRoot = Location.managedRoot(in: root.appendingPathComponent("xdg"))
            try Defaults(
                suiteName: "app", configuration: .init(location: .directory(managedRoot), arguments: [], systemDirectories: [])
            )
            .write("managed", forKey: "locked")
            let defaults = try Defaults(
                suiteName: "app",
                configuration: .init(
                    location: .directory(root.appendingPathComponent("user")), arguments: [],
                    systemDirectories: [root.appendingPathComponent("xdg")]))
            try defaults.transaction { domain in
                #expect(try defaults.value(forKey: "locked") == "managed")
                try domain.write("mine", forKey: "free")
            }
            #expect(try defaults.value(forKey: "free") == "mine")
        }
    }

    /// An error handler that reads through the store (a logger asking a "verbose" key), called from a
    /// body's non-throwing read that falls through to the global domain (refused there): the handler's
    /// own read meets the same refusal, which is not reported again. The handler runs once per read.
    ///
    /// NB: before, each refusal called the handler again, which read again, until the stack overflowed.
    @Test func anErrorHandlerThatReadsInsideABodyIsCalledOncePerRead() throws {
        try withTemporaryRoot { root in
            let calls = Lock(0)
            let holder = Lock<Defaults?>(nil)
            let defaults = try makeDefaults("app", root: root) { _ in
                let depth = calls.withLock { count -> Int in
                    count += 1
                    return count
                }
                guard depth < 100 else { return }  // NB: bounds the recursion this test would find
                _ = holder.withLock { $0 }?.lookup("verbose")
            }
            holder.withLock { $0 = defaults }
            defaults.register(["verbose": false])
            try defaults.transaction { domain in
                #expect(defaults.lookup("verbose") == false, "the registered value, past the refused global domain")
                try domain.write(1, forKey: "x")
            }
            #expect(calls.withLock { $0 } == 1)
        }
    }

    /// A body reads a key of the system layer (non-throwing: past the refused global domain) while
    /// another thread keeps reading that store's uncached keys, holding its lock for each query: the
    /// body's read waits those short reads out instead of being refused, and finds the layer's value.
    ///
    /// NB: before, a try-lock that found the lock held refused the read, and the body read nothing
    /// instead of the system layer's value.
    @Test func aBodyReadsTheSystemLayerWhileAnotherThreadReadsIt() throws {
        try withTemporaryRoot { root in
            let xdg = root.appendingPathComponent("xdg")
            let count = 2000
            // NB: written and closed before the reader opens it, so its view starts empty: each read queries.
            do {
                let system = try Defaults(
                    suiteName: "app",
                    configuration: .init(
                        location: .directory(xdg.appendingPathComponent(Location.systemSubdirectory)), arguments: [],
                        systemDirectories: []))
                try system.replacePersistentValues(
                    Dictionary(uniqueKeysWithValues: (0..<count).map { ("k\($0)", PreferenceValue.integer($0)) }))
            }
            let reported = ReportedErrors()
            let defaults = try Defaults(
                suiteName: "app",
                configuration: .init(
                    location: .directory(root.appendingPathComponent("user")), arguments: [], systemDirectories: [xdg],
                    errorHandler: reported.record))
            let stop = Atomic<Bool>(false)
            let started = DispatchSemaphore(value: 0)
            let stopped = DispatchSemaphore(value: 0)
            Thread {
                started.signal()
                var index = 0
                while !stop.load(ordering: .relaxed) {
                    _ = try? defaults.value(forKey: "miss\(index)")  // NB: a new key: a query, under the lock
                    index += 1
                }
                stopped.signal()
            }.start()
            started.wait()
            var wrong = 0
            // NB: each body reads a key of the layer not read before, so the read needs the layer's lock.
            for index in 0..<count {
                try defaults.transaction { _ in if defaults.lookup("k\(index)") != .integer(index) { wrong += 1 } }
            }
            stop.store(true, ordering: .relaxed)
            stopped.wait()
            #expect(wrong == 0)
            let refusedLayer = reported.all.filter {
                $0 == .otherSuiteInTransaction(suite: "app", transactionSuite: "app")
            }
            #expect(refusedLayer.isEmpty)
        }
    }

    @Test func isOnlyCommitKnowsWhetherOurCommitWrote() throws {
        try withTemporaryRoot { root in
            let store = try makeDefaults("commits", root: root).persistentStoreForTesting
            let connection = try Connection(
                path: root.appendingPathComponent("commits.sqlite3").path, busyTimeoutMilliseconds: 5000)
            defer { connection.close() }
            let signal = ChangeSignal.open(connection: connection)
            /// Commits `sql` and tells whether SQLite reported that the commit wrote to the log.
            func commit(_ sql: String) throws -> Bool {
                let count = connection.walCommitCount
                try connection.execute("BEGIN IMMEDIATE; \(sql) COMMIT")
                return connection.walCommitCount != count
            }
            let write = "INSERT OR REPLACE INTO preferences VALUES ('k', 'integer', random());"
            let before = signal.fingerprint
            let wrote = try commit(write)
            let once = signal.fingerprint
            #expect(wrote)
            #expect(signal.isOnlyCommit(wroteLog: wrote, between: before, and: once))
            #expect(try commit(write) && commit(write))
            #expect(!signal.isOnlyCommit(wroteLog: true, between: once, and: signal.fingerprint))
            let idle = signal.fingerprint
            #expect(try !commit(""), "an empty transaction writes nothing")
            #expect(signal.fingerprint == idle, "and leaves the header as it was")
            #expect(try commit(write))
            #expect(
                !signal.isOnlyCommit(wroteLog: false, between: idle, and: signal.fingerprint),
                "a commit that wrote nothing, then another's: the one commit since is not ours")
            #expect(store.fingerprint == signal.fingerprint, "the store sees the same header")
        }
    }

    struct Sample: CodablePreference { var ratio: Double }

    @Test func anUnencodableValueIsRefusedWithoutItsValue() throws {
        let defaults = try makeInMemoryDefaults()
        let key = Defaults.Key("sample", default: Sample(ratio: 0))
        #expect(throws: DefaultsError.unencodableValue(suite: "test.suite", key: "sample", type: "Sample")) {
            try defaults.write(Sample(ratio: .nan), for: key)
        }
        #expect(try defaults.persistentValue(forKey: "sample") == nil)
    }
}

@Suite struct TransactionBodyTests {
    /// Reads through `Defaults` from inside a body see the open transaction, for a key the view holds
    /// and for one it does not alike; once it is rolled back, the committed values again.
    @Test func readsFromInsideABodySeeItsChangesForCachedAndUncachedKeys() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("inside", root: root)
            try defaults.write("old a", forKey: "a")
            try defaults.write("old c", forKey: "c")
            #expect(try fixture(root, "inside", "write", "other", #"{"integer":1}"#).status == 0)  // the view is dropped
            #expect(try defaults.value(forKey: "a") == "old a")  // "a" is cached again, "c" is not
            struct Abandon: Error {}
            #expect(throws: Abandon.self) {
                try defaults.transaction { domain in
                    try domain.write("new a", forKey: "a")
                    try domain.write("new c", forKey: "c")
                    #expect(try defaults.value(forKey: "a") == "new a", "a cached key")
                    #expect(try defaults.value(forKey: "c") == "new c", "an uncached key")
                    #expect(defaults.string(forKey: "c") == "new c", "through the compatibility layer too")
                    throw Abandon()
                }
            }
            #expect(try defaults.value(forKey: "a") == "old a")
            #expect(try defaults.value(forKey: "c") == "old c", "nothing read inside the body was remembered")
        }
    }
}
