import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// One file, one connection per process, however the root is spelled or wherever it moved.
///
/// NB: POSIX advisory locks belong to the process, and closing any descriptor of a file drops all of
/// the process's locks on it (https://sqlite.org/howtocorrupt.html, 2.2). Two stores of one file in
/// one process would each keep a descriptor of its `-shm`; closing one would silently drop the locks
/// SQLite holds through the other, after which another process may reset the WAL under it.
@Suite(.hangLimit(minutes: 1))
struct StoreIdentityTests {
    /// A root reached through a symbolic link (a dotfile manager's `~/.config`, macOS's `/var`) works,
    /// and repair leaves its healthy files alone. (SQLite's NOFOLLOW refuses a link anywhere in a path;
    /// only the database file itself must not be one.)
    @Test func aRootThroughASymbolicLinkWorks() throws {
        try withTemporaryRoot { parent in
            let real = parent.appendingPathComponent("real")
            let link = parent.appendingPathComponent("link")
            try FileManager.default.createDirectory(at: real, withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
            let nested = link.appendingPathComponent("nested/store")
            try Defaults(suiteName: "linked", configuration: .init(location: .directory(nested), arguments: [])).write(
                "v", forKey: "k")
            #expect(try Defaults.Domain("linked", location: .directory(nested)).repair() == nil)
            #expect(try freshValues(of: databaseFile("linked", in: real.appendingPathComponent("nested/store"))) == ["k": "v"])
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: real.appendingPathComponent("nested/store").path).sorted()
                    == ["linked.sqlite3"], "the global domain is opened by the first read that needs it")
        }
    }

    /// True when a connection of this process holds SQLite's "a connection is open" read lock on the
    /// `-shm` file of `suite`, as another process sees it.
    private func isHeldOpen(_ suite: String, in root: URL) throws -> Bool {
        let probe = try runFixture(root, suite, ["shm-lock-held"])
        #expect(probe.status == 0, "\(probe.error)")
        return probe.output == "held\n"
    }

    @Test func twoSpellingsOfOneRootShareOneStoreAndItsLocks() throws {
        try withTemporaryRoot { parent in
            let real = parent.appendingPathComponent("real")
            let link = parent.appendingPathComponent("link")
            try FileManager.default.createDirectory(at: real, withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
            let first = try Defaults(suiteName: "shared", configuration: .init(location: .directory(real), arguments: []))
            try first.write("one", forKey: "k")
            #expect(try isHeldOpen("shared", in: real))
            do {
                let second = try Defaults(suiteName: "shared", configuration: .init(location: .directory(link), arguments: []))
                #expect(second.persistent.watchedStore === first.persistent.watchedStore, "one store for one file")
                try second.write("two", forKey: "k")
            }
            #expect(try isHeldOpen("shared", in: real), "the first instance's connection still holds its lock")
            #expect(first.string(forKey: "k") == "two")
        }
    }

    /// A root renamed while its store is open (`mv`): the store found at the new path is the one already
    /// open, since the process knows a file by its device and inode, not by the spelling of its path.
    @Test func aRenamedRootSharesTheOpenStoreAndItsLocks() throws {
        try withTemporaryRoot { parent in
            let before = parent.appendingPathComponent("before")
            let after = parent.appendingPathComponent("after")
            let first = try Defaults(suiteName: "moved", configuration: .init(location: .directory(before), arguments: []))
            try first.write("one", forKey: "k")
            #expect(rename(before.path, after.path) == 0)
            #expect(try isHeldOpen("moved", in: after))
            do {
                let second = try Defaults(suiteName: "moved", configuration: .init(location: .directory(after), arguments: []))
                #expect(second.persistent.watchedStore === first.persistent.watchedStore, "one store for one file")
                try second.write("two", forKey: "k")
            }
            #expect(try isHeldOpen("moved", in: after), "the first instance's connection still holds its lock")
            #expect(first.string(forKey: "k") == "two")
            #expect(try freshValues(of: databaseFile("moved", in: after)) == ["k": "two"])
        }
    }

    /// True when a connection of this process holds SQLite's SHARED lock on the database file of `suite`
    /// (which a connection in WAL mode holds while it is open), as another process sees it.
    private func isSharedLockHeld(_ suite: String, in root: URL) throws -> Bool {
        let probe = try runFixture(root, suite, ["shared-lock-held"])
        #expect(probe.status == 0, "\(probe.error)")
        return probe.output == "held\n"
    }

    /// Opening a store of a file this process already has open (here a second store of it, made past the
    /// registry, as another library of the process might) keeps the locks SQLite holds on it: the header
    /// is read through SQLite's own file, never a descriptor of our own, whose closing would drop every
    /// POSIX lock of the process on the file.
    @Test func openingAFileThisProcessHasOpenKeepsItsLocks() throws {
        try withTemporaryRoot { root in
            let first = try Defaults(suiteName: "held", configuration: .init(location: .directory(root), arguments: []))
            try first.write("one", forKey: "k")
            #expect(try isSharedLockHeld("held", in: root))
            let path = try #require(first.persistent.path)
            do {
                let second = try DomainStore.open(
                    name: "held", path: path, status: #require(try Location.status(ofEntry: path)), busyTimeoutMilliseconds: 1000)
                #expect(try second.value(forKey: "k") == "one")
                #expect(try isSharedLockHeld("held", in: root), "while both are open")
            }
            #expect(try isSharedLockHeld("held", in: root), "once the second is closed")
            try first.write("two", forKey: "k")
            #expect(try freshValues(of: databaseFile("held", in: root)) == ["k": "two"])
        }
    }

    /// Asking whether another process is in the middle of a commit (what a look asks before it rests)
    /// tells a transaction of another process and keeps this process's locks: SQLite asks through its
    /// own descriptor of the `-shm`, never one of ours, whose closing would drop them.
    @Test func askingWhetherAnotherProcessIsCommittingKeepsItsLocks() throws {
        try withTemporaryRoot { root in
            let defaults = try Defaults(suiteName: "held", configuration: .init(location: .directory(root), arguments: []))
            try defaults.write("one", forKey: "k")
            #expect(!defaults.anotherProcessMayBeCommitting, "no other process")
            let global = root.appendingPathComponent(Defaults.globalDomain + "." + Location.fileExtension).path
            #expect(!FileManager.default.fileExists(atPath: global), "asking opens no domain")
            let holder = try ChildProcess.fixture(root, "held", ["hold-write-lock", "3"])
            #expect(try holder.nextLine(before: .now + .seconds(30)) == "locked")
            #expect(defaults.anotherProcessMayBeCommitting, "while another process is in its transaction")
            #expect(try holder.wait(before: .now + .seconds(30)) == 0)
            #expect(!defaults.anotherProcessMayBeCommitting, "once it has committed")
            let probe = try runFixture(root, "held", ["shm-lock-held"])
            #expect(probe.output == "held\n", "this process's connection still holds its lock on the -shm: \(probe.error)")
            #expect(try isSharedLockHeld("held", in: root))
            try defaults.write("two", forKey: "k")
            #expect(try defaults.value(forKey: "lock-holder") == "held")
            #expect(try freshValues(of: databaseFile("held", in: root)) == ["k": "two", "lock-holder": "held"])
        }
    }
}
