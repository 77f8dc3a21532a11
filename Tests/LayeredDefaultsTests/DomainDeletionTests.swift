import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

/// `Defaults.Domain.delete()` and `deletability(unchangedFor:now:)`: a domain's files deleted whole,
/// companions first, never a file that is not a regular file, never a domain a process has open.
@Suite struct DomainDeletionTests {
    /// The names of the entries of `directory`, sorted.
    private func entries(of directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    /// Sets the modification time of every file of `domain` that exists to `date`.
    private func age(_ domain: Defaults.Domain, to date: Date) throws {
        for file in domain.files where FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: file.path)
        }
    }

    /// A deletion that makes the `-shm` it locks and is then refused leaves it as SQLite would have made
    /// it: the database's mode and, for root, its owner (a root-owned 0600 file there made another user's
    /// domain unreadable to them).
    @Test func aRefusedDeletionLeavesALogIndexAsSQLiteMakesIt() throws {
        try withTemporaryRoot { root in
            let domain = try Defaults.Domain("app", location: .directory(root), systemDirectories: [])
            try domain.open(errorHandler: { _ in }).write("dark", forKey: "theme")
            let database = try #require(domain.file).path
            let shm = database + "-shm"
            #expect(!FileManager.default.fileExists(atPath: shm), "the store closed cleanly")
            try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: database)
            let owner: UInt32 = getuid() == 0 ? 65_534 : getuid()
            if getuid() == 0 { #expect(chown(database, owner, owner) == 0) }

            #expect(try !domain.delete(unchangedFor: .seconds(3600)), "changed within the hour: kept")

            var status = stat()
            #expect(lstat(shm, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o640 && status.st_uid == owner)
        }
    }

    @Test func aDomainIsDeletedWholeAndNothingElse() throws {
        try withTemporaryRoot { root in
            let domain = try Defaults.Domain("app", location: .directory(root), systemDirectories: [])
            #expect(domain.files.map(\.lastPathComponent) == ["-wal", "-shm", "-journal", ""].map { "app.sqlite3" + $0 })
            try domain.open(errorHandler: { _ in }).write("dark", forKey: "theme")
            let neighbour = try Defaults.Domain("app.other", location: .directory(root), systemDirectories: [])
            try neighbour.open(errorHandler: { _ in }).write(1, forKey: "launches")
            // What a process killed mid-write leaves beside a database: its companions, as regular files.
            for companion in domain.files.dropLast() where !FileManager.default.fileExists(atPath: companion.path) {
                #expect(FileManager.default.createFile(atPath: companion.path, contents: Data()))
            }
            #expect(try domain.deletability() == .deletable)

            #expect(try domain.delete())

            #expect(entries(of: root).allSatisfy { !$0.hasPrefix("app.sqlite3") }, "\(entries(of: root))")
            #expect(entries(of: root).contains("app.other.sqlite3"))
            #expect(try neighbour.open(errorHandler: { _ in }).value(forKey: "launches") == .integer(1))
            #expect(try domain.open(errorHandler: { _ in }).value(forKey: "theme") == nil, "the domain starts afresh")
        }
    }

    /// A domain without a file (its directory missing too) and one in memory are deletable, and deleting them
    /// deletes and makes nothing; a `-wal` left without its database is deleted.
    @Test func aDomainWithoutAFileDeletesNothing() throws {
        try withTemporaryRoot { base in
            let root = base.appendingPathComponent("missing")
            let domain = try Defaults.Domain("app", location: .directory(root), systemDirectories: [])
            #expect(try domain.deletability(unchangedFor: .seconds(3600)) == .deletable)
            #expect(try !domain.delete())
            #expect(entries(of: base).isEmpty, "nothing was made")

            let memory = try Defaults.Domain("app", location: .inMemory, systemDirectories: [])
            #expect(memory.files.isEmpty)
            #expect(try memory.deletability() == .deletable)
            #expect(try !memory.delete())

            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
            #expect(FileManager.default.createFile(atPath: root.appendingPathComponent("app.sqlite3-wal").path, contents: Data()))
            #expect(try domain.delete(), "a log without its database is the domain's, and would be replayed into a new one")
            #expect(entries(of: root).isEmpty)
        }
    }

    /// A database or companion that is a symbolic link or a directory is named, and the domain is left
    /// whole: nothing of it is deleted, and a link's target is untouched.
    @Test(arguments: ["-wal", "-journal", ""])
    func aFileThatIsNotARegularFileIsRefusedAndLeft(suffix: String) throws {
        try withTemporaryRoot { root in
            let domain = try Defaults.Domain("app", location: .directory(root), systemDirectories: [])
            try domain.open(errorHandler: { _ in }).write("dark", forKey: "theme")
            let odd = try #require(domain.files.first { $0.path == domain.file!.path + suffix })
            let victim = root.appendingPathComponent("victim.txt")
            try Data("kept".utf8).write(to: victim)
            if suffix == "-journal" {
                try FileManager.default.createDirectory(at: odd, withIntermediateDirectories: false)
            } else {
                try? FileManager.default.removeItem(at: odd)
                try FileManager.default.createSymbolicLink(at: odd, withDestinationURL: victim)
            }
            let before = entries(of: root)

            #expect(try domain.deletability() == .notRegularFile(odd))
            #expect(throws: DefaultsError.unsafePath(path: odd.path)) { try domain.delete() }

            #expect(entries(of: root) == before)
            #expect(try Data(contentsOf: victim) == Data("kept".utf8))
        }
    }

    @Test func aDomainChangedWithinTheAgeAskedIsNotDeletable() throws {
        try withTemporaryRoot { root in
            let domain = try Defaults.Domain("app", location: .directory(root), systemDirectories: [])
            try domain.open(errorHandler: { _ in }).write("dark", forKey: "theme")
            let now = Date()
            #expect(try domain.deletability(unchangedFor: .seconds(3600), now: now) == .changedRecently)
            #expect(try domain.deletability(unchangedFor: .seconds(3600), now: now + 7200) == .deletable)
            #expect(try domain.deletability(now: now) == .deletable, "nil: any age")
            try age(domain, to: now - 86_400)
            #expect(try domain.deletability(unchangedFor: .seconds(3600), now: now) == .deletable)
            #expect(try domain.exists(), "asking deletes nothing")
        }
    }

    /// A domain another process has open (SQLite's lock on its `-shm` tells) is not deleted; once that
    /// process is gone, it is.
    @Test func aDomainAnotherProcessHasOpenIsNotDeleted() throws {
        try withTemporaryRoot { root in
            let domain = try Defaults.Domain("app", location: .directory(root), systemDirectories: [])
            let holder = try ChildProcess("defaults-fixture", [root.path, "app", "hold-write-lock", "60"])
            defer { holder.send(SIGKILL) }
            #expect(try holder.nextLine(before: .now + .seconds(60)) == "locked")
            let before = entries(of: root)

            #expect(try domain.deletability() == .open)
            #expect(throws: DefaultsError.domainInUse(suite: "app")) { try domain.delete() }
            #expect(entries(of: root) == before)
            #expect(DefaultsError.domainInUse(suite: "app").description.contains("delete the domain 'app'"))

            holder.send(SIGKILL)
            _ = try? holder.wait(before: .now + .seconds(60))
            #expect(try domain.deletability() == .deletable)
            #expect(try domain.delete())
            #expect(entries(of: root).allSatisfy { !$0.hasPrefix("app.sqlite3") }, "\(entries(of: root))")
        }
    }

    /// A domain this process has open is said open without its `-shm` being looked at (opening and closing
    /// it would drop this process's locks on it, and another process would then take the domain for
    /// closed), and is not deleted: the store goes on working, and another process sees its writes.
    @Test func aDomainThisProcessHasOpenIsNotDeletedAndKeepsItsLocks() throws {
        try withTemporaryRoot { root in
            let domain = try Defaults.Domain("app", location: .directory(root), systemDirectories: [])
            let store = try domain.open(errorHandler: { _ in })
            try store.write("one", forKey: "k")
            #expect(try fixture(root, "app", "shm-lock-held").output == "held\n")
            let before = entries(of: root)
            // The same file reached through another spelling of its directory is the same domain.
            let link = root.appendingPathComponent("link")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: root)
            let throughLink = try Defaults.Domain("app", location: .directory(link), systemDirectories: [])

            #expect(try domain.deletability() == .open)
            #expect(try domain.deletability(unchangedFor: .zero, now: Date() + 86_400) == .open)
            #expect(try throughLink.deletability() == .open)
            #expect(throws: DefaultsError.domainInUse(suite: "app")) { try domain.delete() }
            #expect(throws: DefaultsError.domainInUse(suite: "app")) { try throughLink.delete() }

            #expect(
                try fixture(root, "app", "shm-lock-held").output == "held\n",
                "this process's lock on the -shm is still held: another process still sees the domain open")
            #expect(entries(of: root) == before + ["link"])
            try store.write("two", forKey: "k")
            #expect(try store.value(forKey: "k") == .string("two"))
            #expect(try fixture(root, "app", "read", "k").output == #"{"string":"two"}"# + "\n")
        }
    }

    /// A `-shm` that is a second name (a hard link) of the `-shm` of a domain this process has open is not
    /// opened to ask whether the domain is open: closing that descriptor would drop this process's locks
    /// on the file they share, and another process would then take the open domain for closed. Both are
    /// left as they are.
    @Test func aLinkedLogIndexKeepsTheLocksOfTheDomainItIsLinkedTo() throws {
        try withTemporaryRoot { root in
            let domain = try Defaults.Domain("app", location: .directory(root), systemDirectories: [])
            let store = try domain.open(errorHandler: { _ in })
            try store.write("one", forKey: "k")
            #expect(try fixture(root, "app", "shm-lock-held").output == "held\n")
            let other = try Defaults.Domain("other", location: .directory(root), systemDirectories: [])
            #expect(FileManager.default.createFile(atPath: other.file!.path, contents: Data()))
            #expect(link(domain.file!.path + "-shm", other.file!.path + "-shm") == 0)
            let before = entries(of: root)

            #expect(try other.deletability() != .deletable)
            #expect(throws: DefaultsError.self) { try other.delete() }

            #expect(
                try fixture(root, "app", "shm-lock-held").output == "held\n",
                "this process's lock on the -shm is still held: another process still sees the domain open")
            #expect(entries(of: root) == before)
            try store.write("two", forKey: "k")
            #expect(try store.value(forKey: "k") == .string("two"))
        }
    }
}
