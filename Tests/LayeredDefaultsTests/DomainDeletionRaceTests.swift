import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// A deletion racing an opener of the same domain, in another process or this one: no acknowledged write
/// is ever made into a file that is deleted, and no store is ever made of a file its path no longer names.
@Suite struct DomainDeletionRaceTests {
    /// The path under which the registry opens `domain`'s file (its directory's real path).
    private func registeredPath(of domain: Defaults.Domain) throws -> String {
        try #require(domain.file).resolvingSymlinksInPath().path
    }

    /// Another process that opens the domain while a deletion is between its look and its unlinks either
    /// fails with an error or has its write kept: the deletion holds SQLite's locks on the files meanwhile.
    @Test func anotherProcessOpeningDuringADeletionNeverLosesAnAcknowledgedWrite() throws {
        try withTemporaryRoot { root in
            let domain = try Defaults.Domain("app", location: .directory(root), systemDirectories: [])
            #expect(try fixture(root, "app", "write", "k", #"{"string":"v0"}"#).status == 0)
            let path = try registeredPath(of: domain)
            let writer = Lock<ProcessResult?>(nil)
            DomainFiles.beforeDeletingForTesting.withLock {
                $0[path] = {
                    let result = try? run("defaults-fixture", ["--busy-timeout", "0", root.path, "app", "write", "k", #"{"string":"v1"}"#])
                    writer.withLock { $0 = result }
                }
            }
            defer { _ = DomainFiles.beforeDeletingForTesting.withLock { $0.removeValue(forKey: path) } }

            #expect(try domain.delete())

            let result = try #require(writer.withLock { $0 })
            let read = try fixture(root, "app", "read", "k")
            if result.status == 0 {
                #expect(read.output == #"{"string":"v1"}"# + "\n", "an acknowledged write was deleted")
            } else {
                #expect(!result.error.isEmpty, "a write that failed says why")
                #expect(read.output == "nil\n", "the domain was deleted whole")
            }
        }
    }

    /// A file deleted between SQLite's opening of it and its first read (by another process's deletion) is
    /// never made a store: the path is looked at again, and the write goes into the file the path names,
    /// which another process reads.
    @Test func aFileDeletedWhileItIsOpenedIsNeverWrittenInto() throws {
        try withTemporaryRoot { root in
            let domain = try Defaults.Domain("app", location: .directory(root), systemDirectories: [])
            #expect(try fixture(root, "app", "write", "k", #"{"string":"v0"}"#).status == 0)
            let path = try registeredPath(of: domain)
            let deletions = Lock(0)
            DomainStore.setOpeningHookForTesting(
                {
                    deletions.withLock { count in
                        guard count == 0 else { return }
                        count += 1
                        for suffix in ["-wal", "-shm", "-journal", ""] { unlink(path + suffix) }
                    }
                }, at: path)
            defer { DomainStore.setOpeningHookForTesting(nil, at: path) }

            do {
                let store = try domain.open(errorHandler: { _ in })
                try store.write("v1", forKey: "k")
                #expect(try fixture(root, "app", "read", "k").output == #"{"string":"v1"}"# + "\n", "the write was lost")
            }
            #expect(deletions.withLock { $0 } == 1)
            #expect(try fixture(root, "app", "read", "k").output == #"{"string":"v1"}"# + "\n")
        }
    }

    /// A store whose database was deleted under it (its path names nothing, and the file has no name left)
    /// refuses to write, naming the file: its commits would go with the deleted file.
    @Test func aStoreWhoseFileWasDeletedRefusesToWrite() throws {
        try withTemporaryRoot { root in
            let domain = try Defaults.Domain("app", location: .directory(root), systemDirectories: [])
            let store = try domain.open(errorHandler: { _ in })
            try store.write("v0", forKey: "k")
            let path = try registeredPath(of: domain)
            #expect(unlink(path) == 0)

            #expect(throws: DefaultsError.replacedFile(suite: "app", path: path)) { try store.write("v1", forKey: "k") }
        }
    }
}
