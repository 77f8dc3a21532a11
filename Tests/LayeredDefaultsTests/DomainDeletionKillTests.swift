import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// A deletion killed between its unlinks: what it leaves holds every commit the domain had.
@Suite struct DomainDeletionKillTests {
    /// A writer killed with a commit acknowledged that may be only in its `-wal` (its idle checkpoint not
    /// run yet); the deletion deletes the `-wal` first, so what a deletion killed right after that leaves is
    /// the database: it holds the commit, copied in before anything was deleted. (Unfolded, the database
    /// read as it was before the commit.)
    @Test func aDeletionStoppedAfterTheLogLeavesADatabaseWithItsCommits() throws {
        try withTemporaryRoot { root in
            let domain = try Defaults.Domain("app", location: .directory(root), systemDirectories: [])
            #expect(try fixture(root, "app", "write", "k", #"{"string":"v0"}"#).status == 0)
            let input = Pipe()
            let writer = try ChildProcess(
                "defaults-fixture", [root.path, "app", "write-lines", "k"], input: input.fileHandleForReading)
            defer { writer.send(SIGKILL) }
            input.fileHandleForWriting.write(Data("v1\n".utf8))
            #expect(try writer.nextLine(before: .now + .seconds(60)) == "v1")
            writer.send(SIGKILL)
            _ = try? writer.wait(before: .now + .seconds(60))
            let path = try #require(domain.file).resolvingSymlinksInPath().path
            let left = root.appendingPathComponent("left", isDirectory: true)
            try FileManager.default.createDirectory(at: left, withIntermediateDirectories: false)
            // What a deletion killed after its first unlink (the -wal) leaves: the database alone.
            let copied = Lock(false)
            DomainFiles.beforeDeletingForTesting.withLock {
                $0[path] = {
                    do {
                        try FileManager.default.copyItem(atPath: path, toPath: left.appendingPathComponent("app.sqlite3").path)
                        copied.withLock { $0 = true }
                    } catch {}
                }
            }
            defer { _ = DomainFiles.beforeDeletingForTesting.withLock { $0.removeValue(forKey: path) } }

            #expect(try domain.delete())

            #expect(copied.withLock { $0 })
            #expect(
                try fixture(left, "app", "read", "k").output == #"{"string":"v1"}"# + "\n",
                "the commit only the log held was lost")
        }
    }

    /// A process that opens the domain, commits and goes while the deletion folds the log (closing the
    /// fold's connection drops the deletion's locks) keeps the domain: the deletion sees the WAL-index
    /// header rewritten and refuses, the commit readable. (Before, its commit went with the files.)
    @Test func aCommitWhileTheLogIsFoldedKeepsTheDomain() throws {
        try withTemporaryRoot { root in
            let domain = try Defaults.Domain("app", location: .directory(root), systemDirectories: [])
            try domain.open(errorHandler: { _ in }).write("v0", forKey: "k")
            let path = try #require(domain.file).resolvingSymlinksInPath().path
            // A log holding a commit, as a writer that exited without its checkpoint leaves it.
            let writer = try Connection(path: path, busyTimeoutMilliseconds: 5_000)
            writer.setCheckpointOnClose(false)
            try writer.execute("UPDATE preferences SET value = 'v1' WHERE key = 'k'")
            writer.close()
            DomainFiles.afterFoldingForTesting.withLock {
                $0[path] = {
                    guard let late = try? Connection(path: path, busyTimeoutMilliseconds: 5_000) else { return }
                    late.setCheckpointOnClose(false)
                    try? late.execute("INSERT INTO preferences (key, type, value) VALUES ('late', 'string', 'x')")
                    late.close()
                }
            }
            defer { _ = DomainFiles.afterFoldingForTesting.withLock { $0.removeValue(forKey: path) } }

            #expect(throws: DefaultsError.domainInUse(suite: "app")) { try domain.delete() }

            #expect(try domain.open(errorHandler: { _ in }).value(forKey: "late") == "x", "the late commit is kept")
        }
    }
}
