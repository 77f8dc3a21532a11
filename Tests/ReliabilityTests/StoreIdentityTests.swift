import Foundation
import Testing
@testable import LayeredDefaults

/// One file, one connection per process, however the root is spelled.
///
/// NB: POSIX advisory locks belong to the process, and closing any descriptor of a file drops all of
/// the process's locks on it (https://sqlite.org/howtocorrupt.html, 2.2). Two stores of one file in
/// one process would each keep a descriptor of its `-shm`; closing one would silently drop the locks
/// SQLite holds through the other, after which another process may reset the WAL under it.
@Suite(.timeLimit(.minutes(1)))
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
            try Defaults(suiteName: "linked", configuration: .init(location: .directory(nested), arguments: [])).write("v", forKey: "k")
            #expect(try Defaults.repair(suiteName: "linked", location: .directory(nested)) == nil)
            #expect(try freshValues(of: databaseFile("linked", in: real.appendingPathComponent("nested/store"))) == ["k": "v"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: real.appendingPathComponent("nested/store").path).sorted()
                    == ["NSGlobalDomain.sqlite3", "linked.sqlite3"])
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
                #expect(second.persistent === first.persistent, "one store for one file")
                try second.write("two", forKey: "k")
            }
            #expect(try isHeldOpen("shared", in: real), "the first instance's connection still holds its lock")
            #expect(first.string(forKey: "k") == "two")
        }
    }
}
