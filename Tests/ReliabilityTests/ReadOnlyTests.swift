import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// A read-only root directory or database file: reads work, writes fail with
/// ``DefaultsError/readOnly(suite:key:)``, and the file is left as it was.
///
/// The store is used by a child process that drops to an unprivileged user when the tests run as root,
/// since root ignores file permissions.
@Suite(.hangLimit(minutes: 1))
struct ReadOnlyTests {
    let options = Unprivileged.fixtureOptions

    /// A store directory with one value written (and the writer gone, so no `-wal` or `-shm` is left),
    /// owned by the user the fixture runs as.
    private func prepare(_ root: URL) throws -> URL {
        Unprivileged.handOver(root)
        let store = root.appendingPathComponent("store")
        #expect(try runFixture(store, "ro", ["write", "k", #"{"string":"kept"}"#], options: options).status == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: store.path).sorted() == ["ro.sqlite3"])
        return store
    }

    private func expectReadsWorkAndWritesFail(_ store: URL, suite: String = "ro", kept: String? = "kept") throws {
        let read = try runFixture(store, suite, ["read", "k"], options: options)
        #expect(read.status == 0)
        #expect(read.output == (kept.map { #"{"string":"\#($0)"}"# } ?? "nil") + "\n")
        #expect(read.error == "", "nothing reported while reading")
        let write = try runFixture(store, suite, ["write", "k", #"{"string":"changed"}"#], options: options)
        #expect(write.status == 2)
        #expect(write.error == "defaults-fixture: \(DefaultsError.readOnly(suite: suite, key: "k"))\n")
    }

    @Test(.reachableByAnUnprivilegedChild) func aReadOnlyDirectoryReadsAndRefusesWrites() throws {
        try Unprivileged.withRoot { root in
            let store = try prepare(root)
            chmod(store.path, 0o500)
            let before = FileSnapshot.take(store)
            try expectReadsWorkAndWritesFail(store)
            #expect(FileSnapshot.take(store) == before, "nothing created, changed or removed")
            chmod(store.path, 0o700)
            #expect(
                try runFixture(store, "ro", ["write", "k", #"{"string":"changed"}"#], options: options).status == 0,
                "writable again once the permission returns")
        }
    }

    @Test(.reachableByAnUnprivilegedChild) func aReadOnlyDirectoryWithoutTheFileReadsNothingAndRefusesWrites() throws {
        try Unprivileged.withRoot { root in
            let store = try prepare(root)
            chmod(store.path, 0o500)
            let before = FileSnapshot.take(store)
            try expectReadsWorkAndWritesFail(store, suite: "absent", kept: nil)
            #expect(FileSnapshot.take(store) == before)
        }
    }

    /// A writer killed mid-way leaves committed values in the `-wal` file only; a reader in the then
    /// read-only directory must still see them (a snapshot of the main file alone would lose them).
    /// The log and index already exist and are writable, so SQLite can even commit through them (a
    /// directory's permission only governs creating and removing its entries): that write is kept too.
    @Test(.reachableByAnUnprivilegedChild) func aReadOnlyDirectoryAfterACrashStillShowsEveryCommittedValue() throws {
        try Unprivileged.withRoot { root in
            let store = try prepare(root)
            let writer = try ChildProcess.fixture(store, "ro", ["write-many", "w", "1000000"], options: options)
            let deadline = ContinuousClock.now + .seconds(20)
            var acknowledged: [String] = []
            while acknowledged.count < 50, let line = try writer.nextLine(before: deadline) { acknowledged.append(line) }
            writer.send(SIGKILL)
            acknowledged += try writer.remainingLines(before: deadline)
            try writer.wait(before: deadline)
            #expect(FileManager.default.fileExists(atPath: store.appendingPathComponent("ro.sqlite3-wal").path))
            chmod(store.path, 0o500)
            let last = try #require(acknowledged.last)
            let read = try runFixture(store, "ro", ["read", last], options: options)
            #expect(read.output == #"{"integer":\#(acknowledged.count - 1)}"# + "\n", "the last acknowledged write, from the WAL")
            #expect(read.error == "")
            #expect(try runFixture(store, "ro", ["read", "k"], options: options).output == #"{"string":"kept"}"# + "\n")
            let write = try runFixture(store, "ro", ["write", "k", #"{"string":"changed"}"#], options: options)
            #expect(write.status == 0, "\(write.error)")
            #expect(try runFixture(store, "ro", ["read", "k"], options: options).output == #"{"string":"changed"}"# + "\n")
            chmod(store.path, 0o700)
            #expect(try integrityCheck(of: databaseFile("ro", in: store)) == "ok")
            #expect(try freshValues(of: databaseFile("ro", in: store))[last] == .integer(acknowledged.count - 1))
        }
    }

    /// A file this process cannot write is read as it was when the store opened it (an immutable
    /// snapshot: SQLite could not make its WAL index): a later write by its owner shows in a store opened
    /// after it, not in the one already open. What GettingStarted and SearchOrder say of an administrator's
    /// file.
    @Test(.reachableByAnUnprivilegedChild) func aReadOnlyFileIsReadAsItWasWhenOpened() throws {
        try Unprivileged.withRoot { root in
            let store = try prepare(root)
            let file = databaseFile("ro", in: store)
            chmod(file.path, 0o400)
            let input = Pipe()
            let reader = try ChildProcess.fixture(
                store, "ro", ["read-lines", "k"], options: options, input: input.fileHandleForReading)
            func read() throws -> String? {
                input.fileHandleForWriting.write(Data("\n".utf8))
                return try reader.nextLine(before: .now + .seconds(20))
            }
            #expect(try read() == #"{"string":"kept"}"#)
            chmod(file.path, 0o600)
            let write = try runFixture(store, "ro", ["write", "k", #"{"string":"changed"}"#], options: options)
            #expect(write.status == 0, "\(write.error)")
            chmod(file.path, 0o400)
            #expect(try read() == #"{"string":"kept"}"#, "the open snapshot")
            #expect(try runFixture(store, "ro", ["read", "k"], options: options).output == #"{"string":"changed"}"# + "\n")
            try input.fileHandleForWriting.close()
            #expect(try reader.wait(before: .now + .seconds(20)) == 0)
        }
    }

    @Test(.reachableByAnUnprivilegedChild) func aReadOnlyFileReadsAndRefusesWrites() throws {
        try Unprivileged.withRoot { root in
            let store = try prepare(root)
            let file = databaseFile("ro", in: store)
            chmod(file.path, 0o400)
            let before = FileSnapshot.take(file)
            try expectReadsWorkAndWritesFail(store)
            #expect(FileSnapshot.take(file) == before)
            chmod(file.path, 0o600)
            let write = try runFixture(store, "ro", ["write", "k", #"{"string":"changed"}"#], options: options)
            #expect(write.status == 0, "writable again once the permission returns: \(write.error)")
            #expect(try runFixture(store, "ro", ["read", "k"], options: options).output == #"{"string":"changed"}"# + "\n")
        }
    }
}
