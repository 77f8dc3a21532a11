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

    /// A domain whose `-wal` is a link (or whose `-journal` a directory) is skipped and named, never
    /// reported deleted with the odd file left behind; the link's target is untouched.
    @Test func aDomainWithACompanionThatIsNotARegularFileIsSkipped() throws {
        try withTestRoot { root throws in
            try makeDomain("test.run.linked", in: root)
            let wal = root.url.appendingPathComponent("test.run.linked.sqlite3-wal")
            try FileManager.default.removeItem(at: wal)
            let target = root.url.appendingPathComponent("victim.txt")
            try Data("kept".utf8).write(to: target)
            try FileManager.default.createSymbolicLink(at: wal, withDestinationURL: target)
            let result = root.prefs("prune", "--prefix", "test.run.", "--any-age")
            #expect(result.status == .success && result.output.isEmpty)
            #expect(result.errorLines == ["prefs: warning: skipped test.run.linked: '\(wal.path)' is not a regular file"])
            #expect(root.entries.contains("test.run.linked.sqlite3"))
            #expect(try Data(contentsOf: target) == Data("kept".utf8))
        }
    }

    /// Typed on a terminal with standard error sent elsewhere, prune would ask where nobody sees it: it
    /// refuses instead, deleting nothing.
    @Test func onATerminalWithStandardErrorElsewhereItRefuses() throws {
        try withTestRoot { root throws in
            try makeDomain("test.run.a", in: root)
            let result = root.prefs(["prune", "--prefix", "test.run.", "--any-age"], answer: "y", errorIsTerminal: false)
            #expect(result.status == .usage && result.errorLines.count == 1)
            #expect(root.entries.contains("test.run.a.sqlite3"))
        }
    }

    @Test func deletesTheFilesOfMatchingDomainsOnly() throws {
        try withTestRoot { root throws in
            for name in ["test.run.a", "test.run.b", "test.keep", "NSGlobalDomain"] { try makeDomain(name, in: root) }
            try Data().write(to: root.url.appendingPathComponent("test.run.notes.txt"))
            try FileManager.default.createDirectory(
                at: root.url.appendingPathComponent("test.run.dir.sqlite3"), withIntermediateDirectories: true)
            let result = root.prefs("prune", "--prefix", "test.run.", "--any-age")
            #expect(result.status == .success)
            #expect(result.output == "Deleted test.run.a\nDeleted test.run.b\n")
            #expect(
                result.errorLines == [
                    "prefs: warning: skipped test.run.dir: '\(root.url.appendingPathComponent("test.run.dir.sqlite3").path)' is not a regular file"
                ])
            #expect(
                root.entries == [
                    "NSGlobalDomain.sqlite3", "NSGlobalDomain.sqlite3-shm", "NSGlobalDomain.sqlite3-wal",
                    "test.keep.sqlite3", "test.keep.sqlite3-shm", "test.keep.sqlite3-wal", "test.run.dir.sqlite3",
                    "test.run.notes.txt",
                ])
        }
    }

    /// A rollback journal left by a crash goes with its domain: a database created again under the same
    /// name must not meet a stale journal of the old one.
    @Test func deletesALeftoverRollbackJournalToo() throws {
        try withTestRoot { root throws in
            try makeDomain("test.a", in: root)
            try Data("x".utf8).write(to: root.url.appendingPathComponent("test.a.sqlite3-journal"))
            #expect(root.prefs("prune", "--prefix", "test.a", "--any-age").output == "Deleted test.a\n")
            #expect(root.entries.isEmpty)
        }
    }

    @Test func dryRunDeletesNothing() throws {
        try withTestRoot { root throws in
            try makeDomain("test.a", in: root)
            let result = root.prefs("prune", "--prefix", "test.a", "--any-age", "--dry-run", "--json")
            #expect(result.output == #"{"deleted":["test.a"],"dryRun":true}"# + "\n")
            #expect(root.entries.count == 3)
        }
    }

    @Test func olderThanKeepsRecentlyChangedDomains() throws {
        try withTestRoot { root throws in
            try makeDomain("test.run.old", in: root)
            try makeDomain("test.run.recent", in: root)
            try makeDomain("test.run.walRecent", in: root)
            let twoDaysAgo = Date(timeIntervalSinceNow: -2 * 86_400)
            for name in [
                "test.run.old.sqlite3", "test.run.old.sqlite3-wal", "test.run.old.sqlite3-shm",
                "test.run.walRecent.sqlite3", "test.run.walRecent.sqlite3-shm",
            ] {
                try FileManager.default.setAttributes(
                    [.modificationDate: twoDaysAgo], ofItemAtPath: root.url.appendingPathComponent(name).path)
            }
            let result = root.prefs("prune", "--prefix", "test.run.", "--older-than", "1d")
            #expect(result.output == "Deleted test.run.old\n")
            #expect(!root.entries.contains { $0.hasPrefix("test.run.old") })
            #expect(root.entries.filter { $0.hasPrefix("test.run.recent") || $0.hasPrefix("test.run.walRecent") }.count == 6)
        }
    }

    @Test func prunedDomainsCanBeCreatedAgainEmpty() throws {
        try withTestRoot { root throws in
            root.prefs("write", "test.a", "k", "v")
            #expect(root.prefs("prune", "--prefix", "test.a", "--any-age").status == .success)
            #expect(root.prefs("read", "test.a", "k").status == .notFound)
            root.prefs("write", "test.a", "other", "w")
            #expect(try root.stored("test.a") == ["other": "w"])
        }
    }

    /// A bulk deletion is never implied: without an age (`--older-than`, or `--any-age` to say so),
    /// nothing is deleted, even of domains that match.
    @Test func aBulkDeletionNeedsAnAge() throws {
        try withTestRoot { root throws in
            try makeDomain("com.example.app", in: root)
            let result = root.prefs("prune", "--prefix", "com.example.")
            #expect(result.status == .usage)
            #expect(
                result.errorLines == [
                    "prefs: prune needs an age: --older-than <duration> (e.g. 7d), or --any-age to delete matching domains of any age; nothing was deleted"
                ])
            #expect(root.entries.count == 3)
            let both = root.prefs("prune", "--prefix", "com.example.", "--older-than", "0s", "--any-age")
            #expect(both.status == .usage && both.errorLines.count == 1)
            #expect(root.entries.count == 3)
        }
    }

    /// A prefix of one label (a vendor or a top-level name, or one letter) would match every domain
    /// under it: refused, whatever the age.
    @Test(arguments: ["com", "com.", "c", "x", ".x", "a..b", "NSGlobalDomain", "NS"])
    func aPrefixOfOneLabelIsRefused(prefix: String) throws {
        try withTestRoot { root throws in
            for name in ["com.example.app", "c.d", "x.y", "a..b.c", "NSGlobalDomain"] { try makeDomain(name, in: root) }
            let result = root.prefs("prune", "--prefix", prefix, "--older-than", "0s")
            #expect(result.status == .usage)
            #expect(
                result.errorLines == [
                    "prefs: --prefix must name at least two labels, such as com.example. or test.run- (a first label alone, like com or com., matches every domain under it); nothing was deleted"
                ])
            #expect(root.entries.count == 15)
        }
    }

    @Test(arguments: [
        ["prune", "--any-age"], ["prune", "--prefix", "", "--any-age"], ["prune", "--prefix", "a/b.c", "--any-age"],
        ["prune", "--prefix", "x.y", "--older-than", "soon"], ["prune", "--prefix", "x.y", "--any-age", "extra"],
        ["read", "--prefix", "x.y", "app"], ["prune", "--prefix", "x.y", "--prefix", "x.z", "--any-age"],
        ["prune", "--prefix", "x.y", "--any-age=yes"],
    ])
    func badOptionsDeleteNothing(arguments: [String]) throws {
        try withTestRoot { root throws in
            try makeDomain("x.y", in: root)
            let result = root.prefs(arguments)
            #expect(result.status == .usage && result.errorLines.count == 1)
            #expect(root.entries.count == 3)
        }
    }

    /// On a terminal, prune lists the domains and deletes only when the answer is yes.
    @Test(arguments: [("y", true), ("yes", true), ("n", false), ("", false), ("later", false)])
    func onATerminalItListsAndAsks(answer: String, deletes: Bool) throws {
        try withTestRoot { root throws in
            try makeDomain("test.run.a", in: root)
            try makeDomain("test.run.b", in: root)
            try makeDomain("test.keep", in: root)
            let result = root.prefs(["prune", "--prefix", "test.run.", "--any-age"], answer: answer)
            #expect(
                result.error.hasPrefix(
                    "prefs: prune will delete 2 domains under \(root.url.path):\n  test.run.a\n  test.run.b\nDelete them? [y/N] ")
            )
            if deletes {
                #expect(result.status == .success && result.output == "Deleted test.run.a\nDeleted test.run.b\n")
                #expect(root.entries == ["test.keep.sqlite3", "test.keep.sqlite3-shm", "test.keep.sqlite3-wal"])
            } else {
                #expect(result.status == .notFound && result.output.isEmpty)
                #expect(result.error.hasSuffix("[y/N] prefs: prune was not confirmed; nothing was deleted\n"))
                #expect(root.entries.count == 9)
            }
        }
    }

    /// A dry run, and a prune that matches nothing, ask nothing, even on a terminal.
    @Test func nothingToDeleteAsksNothing() throws {
        try withTestRoot { root throws in
            try makeDomain("test.run.a", in: root)
            let dryRun = root.prefs(["prune", "--prefix", "test.run.", "--any-age", "--dry-run"], answer: "n")
            #expect(dryRun.status == .success && dryRun.error.isEmpty && dryRun.output == "Would delete test.run.a\n")
            let none = root.prefs(["prune", "--prefix", "test.other.", "--any-age"], answer: "n")
            #expect(none.status == .success && none.error.isEmpty && none.output.isEmpty)
            #expect(root.entries.count == 3)
        }
    }

    /// The age is asked again as each domain is deleted: a domain written while prune asked is kept, and named.
    @Test func aDomainChangedWhileItAsksIsKept() throws {
        try withTestRoot { root throws in
            try makeDomain("test.run.a", in: root)
            try makeDomain("test.run.b", in: root)
            let old = Date().addingTimeInterval(-3 * 86_400)
            for entry in root.entries {
                try FileManager.default.setAttributes(
                    [.modificationDate: old], ofItemAtPath: root.url.appendingPathComponent(entry).path)
            }
            let written = root.url.appendingPathComponent("test.run.a.sqlite3-wal").path
            let result = root.prefs(["prune", "--prefix", "test.run.", "--older-than", "1d"], answer: "y") {
                _ = try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: written)
            }
            #expect(result.error.contains("  test.run.a\n  test.run.b\n"), "both were listed")
            #expect(result.status == .success && result.output == "Deleted test.run.b\n")
            #expect(
                result.errorLines.last?.hasSuffix(
                    "prefs: warning: skipped test.run.a: it changed (or went) since it was listed; prune again") == true)
            #expect(root.entries == ["test.run.a.sqlite3", "test.run.a.sqlite3-shm", "test.run.a.sqlite3-wal"])
        }
    }

    /// A domain that has only a `-wal` (or `-shm`, `-journal`) left, no database, is listed and pruned: a log
    /// left there would be applied to a new database of the name.
    @Test func aDomainWithOnlyCompanionsLeftIsPruned() throws {
        try withTestRoot { root throws in
            try FileManager.default.createDirectory(at: root.url, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: root.url.appendingPathComponent("test.run.orphan.sqlite3-wal"))
            try Data("x".utf8).write(to: root.url.appendingPathComponent("test.run.orphan.sqlite3-shm"))
            try Data("x".utf8).write(to: root.url.appendingPathComponent("test.keep.sqlite3-wal"))
            let result = root.prefs("prune", "--prefix", "test.run.", "--any-age")
            #expect(result.status == .success && result.output == "Deleted test.run.orphan\n", "\(result.error)")
            #expect(root.entries == ["test.keep.sqlite3-wal"])
        }
    }
}
