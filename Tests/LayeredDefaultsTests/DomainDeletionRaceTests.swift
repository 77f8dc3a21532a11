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
                    let result = try? run(
                        "defaults-fixture", ["--busy-timeout", "0", root.path, "app", "write", "k", #"{"string":"v1"}"#])
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

    /// Threads opening, writing and releasing a domain while another deletes it over and over: every open
    /// and write succeeds and reads back, and no store is made of a file that a deletion removed (a
    /// deletion never runs while a thread is between its look at the path and its store's registration).
    @Test func threadsOpeningWhileAnotherDeletesAlwaysOpenAndWrite() throws {
        try withTemporaryRoot { root in
            let domain = try Defaults.Domain("race", location: .directory(root), systemDirectories: [])
            let stop = Lock(false)
            let unexpected = Lock<[String]>([])
            let deleter = Thread {
                while !stop.withLock({ $0 }) {
                    do {
                        try domain.delete()
                    } catch DefaultsError.domainInUse {
                    } catch {
                        unexpected.withLock { $0.append("delete: \(error)") }
                    }
                }
                stop.withLock { $0 = false }
            }
            deleter.start()
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                for round in 0..<200 {
                    do {
                        let store = try domain.open(errorHandler: { _ in })
                        try store.write(.integer(round), forKey: "k\(worker)")
                        let back = try store.value(forKey: "k\(worker)")
                        if back != .integer(round) { unexpected.withLock { $0.append("read back \(String(describing: back))") } }
                    } catch {
                        unexpected.withLock { $0.append("worker: \(error)") }
                    }
                }
            }
            stop.withLock { $0 = true }
            // The deleter sets it back once it has left its loop.
            while stop.withLock({ $0 }) { sched_yield() }
            #expect(unexpected.withLock { $0 }.isEmpty, "\(Set(unexpected.withLock { $0 }).prefix(3))")
        }
    }

    /// A deletion that asks an age asks it under its locks, as it deletes: a domain changed within it is
    /// left whole (nil), one unchanged for it is deleted.
    @Test func aDeletionWithAnAgeKeepsADomainChangedWithinIt() throws {
        try withTemporaryRoot { root in
            let domain = try Defaults.Domain("app", location: .directory(root), systemDirectories: [])
            #expect(try fixture(root, "app", "write", "k", #"{"string":"v0"}"#).status == 0)
            let now = Date()

            #expect(try !domain.delete(unchangedFor: .seconds(3600), now: now))
            #expect(try domain.exists())
            #expect(try domain.delete(unchangedFor: .seconds(3600), now: now + 7200) == true)
            #expect(try !domain.exists())
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
