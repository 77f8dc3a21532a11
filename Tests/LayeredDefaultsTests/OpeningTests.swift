import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// What opening a store does now and what it leaves to the first write, so that an open followed by a
/// read does no more than it needs: the durability setting and the idle checkpoint's timer wait for the
/// first write; the journal mode is taken from the judged header where SQLite agrees.
@Suite struct OpeningTests {
    /// `PRAGMA synchronous` of `defaults`' connection (0 OFF, 1 NORMAL, 2 FULL).
    func synchronous(of defaults: Defaults) throws -> Int {
        try defaults.persistentStoreForTesting.withConnectionForTesting { try $0.integer("PRAGMA synchronous") }
    }

    /// A store of `suite` under `root` with one value written, then let go: the file exists and is closed.
    func writtenStore(_ suite: String, root: URL) throws {
        try makeDefaults(suite, root: root).write(1, forKey: "k")
    }

    @Test func theFirstWriteSetsNormalSynchronous() throws {
        try withTemporaryRoot { root in
            try writtenStore("durability", root: root)
            let defaults = try makeDefaults("durability", root: root)
            #expect(defaults.integer(forKey: "k") == 1)
            #expect(try synchronous(of: defaults) == 2, "a store that was only read keeps SQLite's default")
            try defaults.write(2, forKey: "k")
            #expect(try synchronous(of: defaults) == 1, "written with synchronous = NORMAL")
        }
    }

    @Test func theIdleCheckpointTimerIsMadeByTheFirstWrite() throws {
        try withTemporaryRoot { root in
            try writtenStore("timer", root: root)
            let defaults = try makeDefaults("timer", root: root)
            #expect(defaults.integer(forKey: "k") == 1)
            let checkpoint = try #require(defaults.persistentStoreForTesting.idleCheckpoint)
            #expect(!checkpoint.hasTimer, "a store that was only read has no timer")
            try defaults.write(2, forKey: "k")
            #expect(checkpoint.hasTimer && checkpoint.isArmed)
        }
    }

    /// A file in WAL mode, whose header says so, gets the WAL-index signal: it sees another connection's
    /// commit, and nothing changes while nobody commits.
    @Test func aWALFileIsWatchedThroughItsIndex() throws {
        try withTemporaryRoot { root in
            try writtenStore("wal", root: root)
            let defaults = try makeDefaults("wal", root: root)
            let store = defaults.persistentStoreForTesting
            let before = store.fingerprint
            #expect(store.fingerprint == before, "no commit, no change")
            let other = try Connection(path: root.appendingPathComponent("wal.sqlite3").path, busyTimeoutMilliseconds: 5000)
            try other.execute("UPDATE preferences SET value = 3 WHERE key = 'k'")
            #expect(store.fingerprint != before, "another connection's commit is seen")
            #expect(defaults.integer(forKey: "k") == 3)
            other.close()
        }
    }

    /// A file of ours switched to rollback-journal mode (its header says so) has no WAL index to watch:
    /// every look is a change, so every read asks SQLite.
    @Test func aRollbackJournalFileIsAlwaysReadThrough() throws {
        try withTemporaryRoot { root in
            try writtenStore("rollback", root: root)
            let path = root.appendingPathComponent("rollback.sqlite3").path
            let switcher = try Connection(path: path, busyTimeoutMilliseconds: 5000)
            #expect(try switcher.text("PRAGMA journal_mode = DELETE") == "delete")
            switcher.close()
            let defaults = try makeDefaults("rollback", root: root)
            #expect(defaults.persistentStoreForTesting.fingerprint != defaults.persistentStoreForTesting.fingerprint)
            #expect(defaults.integer(forKey: "k") == 1)
        }
    }

    @Test func aFilesDirectoryIsAllBeforeItsLastSlash() {
        #expect(StoreRegistry.directory(of: "/home/u/.config/layered-defaults/a.b.sqlite3") == "/home/u/.config/layered-defaults")
        #expect(StoreRegistry.directory(of: "/a.sqlite3") == "/")
    }

    /// The last root's standardized form is remembered; another root, or one standardizing changes, is
    /// standardized anew.
    @Test func eachRootIsStandardized() {
        let plain = StoreRegistry(root: URL(fileURLWithPath: "/tmp/opening-a/", isDirectory: true), busyTimeoutMilliseconds: 0)
        #expect(plain.root?.path == "/tmp/opening-a")
        let dotted = StoreRegistry(root: URL(fileURLWithPath: "/tmp/./opening-b/", isDirectory: true), busyTimeoutMilliseconds: 0)
        #expect(dotted.root?.path == "/tmp/opening-b")
        let again = StoreRegistry(root: URL(fileURLWithPath: "/tmp/opening-a/", isDirectory: true), busyTimeoutMilliseconds: 0)
        #expect(again.root?.path == "/tmp/opening-a")
        #expect(again.filePath(of: "s") == "/tmp/opening-a/s.sqlite3")
    }
}
