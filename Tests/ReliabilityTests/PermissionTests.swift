import Foundation
import Testing
@testable import LayeredDefaults

/// The root directory is 0700 and every file in it (database, `-wal`, `-shm`) 0600, whoever creates
/// them and whatever their umask.
@Suite(.timeLimit(.minutes(1)))
struct PermissionTests {
    /// Every entry of `root`: its name and mode.
    private func modes(in root: URL) throws -> [String: mode_t] {
        var result: [String: mode_t] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: root.path) {
            result[name] = mode(of: root.appendingPathComponent(name).path)
        }
        return result
    }

    private func expectPrivate(_ root: URL, including expected: [String], _ comment: Comment) throws {
        #expect(mode(of: root.path) == 0o700, comment)
        let modes = try modes(in: root)
        for name in expected { #expect(modes[name] != nil, "\(name) exists: \(comment)") }
        for (name, mode) in modes { #expect(mode == 0o600, "\(name) is \(String(mode, radix: 8)): \(comment)") }
    }

    /// A process with umask 000 creates the root (and its missing parents) and the files, and holds the
    /// write lock so the `-wal` and `-shm` files exist while we look.
    @Test func aPermissiveUmaskStillGivesAPrivateRootAndFiles() throws {
        try withTemporaryRoot { parent in
            let root = parent.appendingPathComponent("created/on/the/way/store")
            let holder = try ChildProcess.fixture(root, "perm", ["hold-write-lock", "30"], options: ["--umask", "000"])
            let deadline = ContinuousClock.now + .seconds(20)
            #expect(try holder.nextLine(before: deadline) == "locked")
            try expectPrivate(root, including: ["perm.sqlite3", "perm.sqlite3-wal", "perm.sqlite3-shm"], "while another process writes")
            var directory = root.deletingLastPathComponent()
            while directory.path != parent.path {
                #expect((mode(of: directory.path) ?? 0) & 0o022 == 0, "\(directory.path) is writable by others: \(String(mode(of: directory.path) ?? 0, radix: 8))")
                directory.deleteLastPathComponent()
            }
            holder.send(SIGKILL)
            try holder.wait(before: deadline)
        }
    }

    /// We create the files; another process (umask 000) writes while we have them open, then again after
    /// we closed them, recreating `-wal` and `-shm`: every file is still 0600.
    @Test func filesStayPrivateAfterWritesFromAnotherProcess() throws {
        try withTemporaryRoot { parent in
            let root = parent.appendingPathComponent("store")
            do {
                let defaults = try Defaults(suiteName: "perm", configuration: .init(location: .directory(root), arguments: []))
                try defaults.write("ours", forKey: "k")
                #expect(try runFixture(root, "perm", ["write", "theirs", #"{"string":"x"}"#], options: ["--umask", "000"]).status == 0)
                try expectPrivate(root, including: ["perm.sqlite3", "perm.sqlite3-wal", "perm.sqlite3-shm"], "while both have it open")
                #expect(defaults.string(forKey: "theirs") == "x")
            }
            let holder = try ChildProcess.fixture(root, "perm", ["hold-write-lock", "30"], options: ["--umask", "000"])
            let deadline = ContinuousClock.now + .seconds(20)
            #expect(try holder.nextLine(before: deadline) == "locked")
            try expectPrivate(root, including: ["perm.sqlite3-wal", "perm.sqlite3-shm"], "recreated by the other process")
            holder.send(SIGKILL)
            try holder.wait(before: deadline)
        }
    }

    /// An existing root keeps the mode its owner chose: the store only sets the mode of what it creates.
    @Test func anExistingRootKeepsItsMode() throws {
        try withTemporaryRoot { root in
            chmod(root.path, 0o750)
            _ = try Defaults(suiteName: "perm", configuration: .init(location: .directory(root), arguments: [])).write("v", forKey: "k")
            #expect(mode(of: root.path) == 0o750)
            #expect(mode(of: databaseFile("perm", in: root).path) == 0o600)
        }
    }
}
