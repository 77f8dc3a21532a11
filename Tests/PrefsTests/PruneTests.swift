import Foundation
import LayeredDefaults
import Testing

@testable import prefs

@Suite struct PruneTests {
    /// Creates the domain files of `name`, with a WAL and shared-memory file beside the database.
    func makeDomain(_ name: String, in root: TestRoot) throws {
        try FileManager.default.createDirectory(at: root.url, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] {
            try Data("x".utf8).write(to: root.url.appendingPathComponent("\(name).sqlite3\(suffix)"))
        }
    }

    @Test func deletesTheFilesOfMatchingDomainsOnly() throws {
        try withTestRoot { root throws in
            for name in ["test.a", "test.b", "keep", "NSGlobalDomain"] { try makeDomain(name, in: root) }
            try Data().write(to: root.url.appendingPathComponent("test.notes.txt"))
            try FileManager.default.createDirectory(
                at: root.url.appendingPathComponent("test.dir.sqlite3"), withIntermediateDirectories: true)
            let result = root.prefs("prune", "--prefix", "test.")
            #expect(result.status == .success)
            #expect(result.output == "Deleted test.a\nDeleted test.b\n")
            #expect(
                result.errorLines == [
                    "prefs: skipped test.dir: '\(root.url.appendingPathComponent("test.dir.sqlite3").path)' is not a regular file"
                ])
            #expect(
                root.entries == [
                    "NSGlobalDomain.sqlite3", "NSGlobalDomain.sqlite3-shm", "NSGlobalDomain.sqlite3-wal",
                    "keep.sqlite3", "keep.sqlite3-shm", "keep.sqlite3-wal", "test.dir.sqlite3", "test.notes.txt",
                ])
        }
    }

    /// A rollback journal left by a crash goes with its domain: a database created again under the same
    /// name must not meet a stale journal of the old one.
    @Test func deletesALeftoverRollbackJournalToo() throws {
        try withTestRoot { root throws in
            try makeDomain("test.a", in: root)
            try Data("x".utf8).write(to: root.url.appendingPathComponent("test.a.sqlite3-journal"))
            #expect(root.prefs("prune", "--prefix", "test.").output == "Deleted test.a\n")
            #expect(root.entries.isEmpty)
        }
    }

    @Test func neverPrunesTheGlobalDomain() throws {
        try withTestRoot { root throws in
            try makeDomain("NSGlobalDomain", in: root)
            #expect(root.prefs("prune", "--prefix", "NS").output.isEmpty)
            #expect(root.entries.count == 3)
        }
    }

    @Test func dryRunDeletesNothing() throws {
        try withTestRoot { root throws in
            try makeDomain("test.a", in: root)
            let result = root.prefs("prune", "--prefix", "test", "--dry-run", "--json")
            #expect(result.output == #"{"deleted":["test.a"],"dryRun":true}"# + "\n")
            #expect(root.entries.count == 3)
        }
    }

    @Test func olderThanKeepsRecentlyChangedDomains() throws {
        try withTestRoot { root throws in
            try makeDomain("test.old", in: root)
            try makeDomain("test.recent", in: root)
            try makeDomain("test.walRecent", in: root)
            let twoDaysAgo = Date(timeIntervalSinceNow: -2 * 86_400)
            for name in [
                "test.old.sqlite3", "test.old.sqlite3-wal", "test.old.sqlite3-shm", "test.walRecent.sqlite3",
                "test.walRecent.sqlite3-shm",
            ] {
                try FileManager.default.setAttributes(
                    [.modificationDate: twoDaysAgo], ofItemAtPath: root.url.appendingPathComponent(name).path)
            }
            let result = root.prefs("prune", "--prefix", "test.", "--older-than", "1d")
            #expect(result.output == "Deleted test.old\n")
            #expect(!root.entries.contains { $0.hasPrefix("test.old") })
            #expect(root.entries.filter { $0.hasPrefix("test.recent") || $0.hasPrefix("test.walRecent") }.count == 6)
        }
    }

    @Test func prunedDomainsCanBeCreatedAgainEmpty() throws {
        try withTestRoot { root throws in
            root.prefs("write", "test.a", "k", "v")
            #expect(root.prefs("prune", "--prefix", "test.a").status == .success)
            #expect(root.prefs("read", "test.a", "k").status == .notFound)
            root.prefs("write", "test.a", "other", "w")
            #expect(try root.stored("test.a") == ["other": "w"])
        }
    }

    @Test(arguments: [
        ["prune"], ["prune", "--prefix", ""], ["prune", "--prefix", "a/b"], ["prune", "--prefix", "x", "--older-than", "soon"],
        ["prune", "--prefix", "x", "extra"], ["read", "--prefix", "x", "app"], ["prune", "--prefix", "x", "--prefix", "y"],
    ])
    func badOptionsDeleteNothing(arguments: [String]) throws {
        try withTestRoot { root throws in
            try makeDomain("x", in: root)
            let result = root.prefs(arguments)
            #expect(result.status == .usage && result.errorLines.count == 1)
            #expect(root.entries.count == 3)
        }
    }
}
