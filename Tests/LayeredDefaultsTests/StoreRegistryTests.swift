import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// The registry of open stores: one open never waits for another domain's.
@Suite(.hangLimit(minutes: 1))
struct StoreRegistryTests {
    /// While one domain's open waits on its file (another connection holds an exclusive lock on the new,
    /// empty file, so the schema check waits out the busy timeout), another domain opens. Only then is the
    /// lock released, so the first open succeeds only if the second did not wait for it.
    ///
    /// NB: the short sleep lets the first open start before the second; it decides only whether the
    /// stall could be seen, never whether this test passes.
    @Test func aWaitingOpenDoesNotStallAnotherDomain() throws {
        try withTemporaryRoot { root in
            let registry = StoreRegistry(root: root, busyTimeoutMilliseconds: 10_000)
            let slowPath = try #require(registry.filePath(of: "slow"))
            #expect(FileManager.default.createFile(atPath: slowPath, contents: nil, attributes: [.posixPermissions: 0o600]))
            let holder = try Connection(path: slowPath, busyTimeoutMilliseconds: 0)
            try holder.execute("BEGIN EXCLUSIVE")

            let slow = Lock<Result<DomainStore?, any Error>?>(nil)
            let finished = DispatchSemaphore(value: 0)
            Thread {
                let result = Result { try registry.store(named: "slow") }
                slow.withLock { $0 = result }
                finished.signal()
            }.start()
            Thread.sleep(forTimeInterval: 0.2)

            let fast = try registry.store(named: "fast")
            let slowDoneFirst = slow.withLock { $0 != nil }
            try holder.execute("ROLLBACK")
            holder.close()
            finished.wait()

            #expect(fast?.path != nil)
            #expect(!slowDoneFirst, "the other domain's open waited for this one")
            let opened = try #require(slow.withLock { $0 }).get()
            #expect(opened?.path == slowPath, "opened once the lock was released")
        }
    }

    /// Callers opening one file at the same time get the one store of it.
    @Test func concurrentOpensOfOneFileShareOneStore() throws {
        try withTemporaryRoot { root in
            let registry = StoreRegistry(root: root, busyTimeoutMilliseconds: 5_000)
            let opened = Lock<[DomainStore?]>([])
            try onThreads(8) { _ in
                let store = try registry.store(named: "shared")
                opened.withLock { $0.append(store) }
            }
            let stores = opened.withLock { $0 }
            #expect(stores.count == 8)
            let first = try #require(stores.first ?? nil)
            #expect(stores.allSatisfy { $0 === first })
        }
    }
}
