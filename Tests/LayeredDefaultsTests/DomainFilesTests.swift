import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// The one way a domain's files are deleted, the work of `Defaults.Domain.delete()` and `deletability(unchangedFor:now:)`.
@Suite struct DomainFilesTests {
    /// The companions come before the database, so a deletion stopped midway never leaves a `-wal`
    /// without its database; only regular files are listed, and nothing else is touched.
    @Test func companionsAreDeletedBeforeTheDatabaseAndNothingElse() throws {
        try withTemporaryRoot { root in
            let database = root.appendingPathComponent("app.sqlite3").path
            for suffix in ["", "-wal", "-shm"] {
                #expect(FileManager.default.createFile(atPath: database + suffix, contents: Data()))
            }
            try FileManager.default.createDirectory(atPath: database + "-journal", withIntermediateDirectories: false)
            #expect(FileManager.default.createFile(atPath: root.appendingPathComponent("other.sqlite3").path, contents: Data()))
            #expect(DomainFiles.existing(ofDatabase: database) == [database + "-wal", database + "-shm", database])
            try DomainFiles.delete(database: database)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == [
                    "app.sqlite3-journal", "other.sqlite3",
                ])
        }
    }

    /// A database another process has open is seen as open (SQLite's lock on its `-shm`); closed, it is not.
    @Test func aDatabaseAnotherProcessHasOpenIsSeenAsOpen() throws {
        try withTemporaryRoot { root in
            let database = root.appendingPathComponent("app.sqlite3").path
            let holder = try ChildProcess("defaults-fixture", [root.path, "app", "hold-write-lock", "60"])
            defer { holder.send(SIGKILL) }
            #expect(try holder.nextLine(before: .now + .seconds(60)) == "locked")
            #expect(DomainFiles.isOpen(database))
            holder.send(SIGKILL)
            _ = try? holder.wait(before: .now + .seconds(60))
            #expect(!DomainFiles.isOpen(database))
        }
    }
}
