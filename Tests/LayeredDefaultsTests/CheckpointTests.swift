import Foundation
import PackageTestSupport
import Synchronization
import Testing

@testable import LayeredDefaults

/// The write-ahead log is checkpointed on the store's own connection once the store is idle, and by the
/// WAL hook's backstop when it never is. "Idle now" is ``DomainStore/checkpointIfIdle()``: no test
/// here waits for the quiet period, and each checkpoints only its own stores.
@Suite struct CheckpointTests {
    /// The frames of `defaults`' log (`mxFrame`) and how many of them are in the database file
    /// (`nBackfill`), from the WAL index SQLite keeps in the `-shm` file (https://sqlite.org/walformat.html).
    func logFrames(of defaults: Defaults) throws -> (frames: UInt32, backfilled: UInt32) {
        try defaults.persistentStoreForTesting.withConnectionForTesting { connection in
            let index = try #require(connection.walIndexHeader())
            // NB: mxFrame is at offset 16 of the header, nBackfill the first word of the checkpoint
            // information that follows the header's two 48-byte copies.
            return (index.load(fromByteOffset: 16, as: UInt32.self), index.load(fromByteOffset: 96, as: UInt32.self))
        }
    }

    /// Whether `store` waits for an idle checkpoint.
    func awaits(_ store: DomainStore) -> Bool { store.idleCheckpoint?.isArmed == true }

    @Test func anIdleStoreIsCheckpointed() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("idle", root: root)
            for index in 0..<50 { try defaults.write(.integer(index), forKey: "k\(index % 10)") }
            // NB: twice: an idle check finding commits made since the store armed its timer arms it again.
            defaults.persistentStoreForTesting.checkpointIfIdle()
            defaults.persistentStoreForTesting.checkpointIfIdle()
            let log = try logFrames(of: defaults)
            #expect(log.frames > 0)
            #expect(log.backfilled == log.frames, "every frame of an idle store's log is in the database")
            #expect(!awaits(defaults.persistentStoreForTesting))
            #expect(!awaits(defaults.persistentStoreForTesting), "a checkpointed store is not armed")
            try defaults.write(99, forKey: "k0")
            #expect(try freshValues(of: root.appendingPathComponent("idle.sqlite3"))["k0"] == 99)
        }
    }

    /// A store that committed since it armed its idle checkpoint is not idle: the check arms it again.
    @Test func aStoreStillWritingIsNotCheckpointed() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("busy", root: root)
            var judged = false
            for _ in 0..<10 where !judged {
                let start = ContinuousClock.now
                try defaults.write(1, forKey: "k")  // arms the idle checkpoint
                try defaults.write(2, forKey: "k")  // commits after arming it
                defaults.persistentStoreForTesting.checkpointIfIdle()
                let log = try logFrames(of: defaults)
                let pending = awaits(defaults.persistentStoreForTesting)
                defaults.persistentStoreForTesting.checkpointIfIdle()
                // NB: the timer's own check, due a quiet period after the arming, may have come first
                // on a loaded machine: then this round proves nothing, and another is made.
                guard ContinuousClock.now - start < IdleCheckpoint.quietPeriod else { continue }
                judged = true
                #expect(log.backfilled < log.frames, "a store that wrote since it asked is not checkpointed")
                #expect(pending, "and its idle checkpoint is armed again")
                let after = try logFrames(of: defaults)
                #expect(after.backfilled == after.frames, "the next check finds it idle")
            }
            #expect(judged)
        }
    }

    /// The WAL hook's checkpoint bounds the log when the store is never idle.
    @Test func theBackstopBoundsTheLogWhenWritesNeverStop() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("log", root: root)
            for index in 0..<(3 * Int(backstopCheckpointFrames)) { try defaults.write(.integer(index), forKey: "k\(index % 10)") }
            let log = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("log.sqlite3-wal").path)
            let size = try #require(log[.size] as? Int)
            let bound = Int(backstopCheckpointFrames) * 11 / 10 * (4096 + 24)
            #expect(size < bound, "a log of \(3 * backstopCheckpointFrames) commits is checkpointed near the backstop")
        }
    }

    /// A store's timer holds it weakly: a store released while its checkpoint is pending goes at once.
    @Test func aReleasedStoreIsNotKeptAliveByItsPendingCheckpoint() throws {
        try withTemporaryRoot { root in
            weak var released: DomainStore?
            do {
                let defaults = try makeDefaults("released", root: root)
                try defaults.write(1, forKey: "k")
                released = defaults.persistentStoreForTesting
                #expect(awaits(defaults.persistentStoreForTesting))
            }
            #expect(released == nil, "a pending checkpoint does not keep the store alive")
            StoreRegistry.checkpointIfIdleForTesting(under: root)
            #expect(try freshValues(of: root.appendingPathComponent("released.sqlite3"))["k"] == 1)
        }
    }

    @Test func anInMemoryStoreNeverAsksForACheckpoint() throws {
        let defaults = try makeInMemoryDefaults()
        try defaults.write(1, forKey: "k")
        #expect(!awaits(defaults.persistentStoreForTesting))
    }

    /// Stores opened, written and released on several threads while idle checkpoints run on another: nothing is
    /// lost, nothing crashes (and, under ThreadSanitizer, nothing races).
    @Test func storesReleasedWhileCheckpointedLoseNothing() throws {
        try withTemporaryRoot { root in
            try whileRepeating({ StoreRegistry.checkpointIfIdleForTesting(under: root) }) {
                try onThreads(4) { writer in
                    for round in 0..<25 {
                        let defaults = try makeDefaults("churn\(writer)", root: root)
                        try defaults.write(.integer(round), forKey: "round")
                    }
                }
            }
            for writer in 0..<4 {
                #expect(try freshValues(of: root.appendingPathComponent("churn\(writer).sqlite3"))["round"] == 24)
            }
        }
    }
}
