import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// The root directory is 0700 and every file in it (database, `-wal`, `-shm`) 0600, whoever creates
/// them and whatever their umask; a file or directory this user may not read is a permission error,
/// never taken for corruption or for an empty store.
///
/// The stores of the permission errors are used by a child process that drops to an unprivileged user
/// when the tests run as root, since root ignores file permissions.
@Suite(.hangLimit(minutes: 1))
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
            try expectPrivate(
                root, including: ["perm.sqlite3", "perm.sqlite3-wal", "perm.sqlite3-shm"], "while another process writes")
            var directory = root.deletingLastPathComponent()
            while directory.path != parent.path {
                #expect(
                    (mode(of: directory.path) ?? 0) & 0o022 == 0,
                    "\(directory.path) is writable by others: \(String(mode(of: directory.path) ?? 0, radix: 8))")
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
                #expect(
                    try runFixture(root, "perm", ["write", "theirs", #"{"string":"x"}"#], options: ["--umask", "000"]).status == 0
                )
                try expectPrivate(
                    root, including: ["perm.sqlite3", "perm.sqlite3-wal", "perm.sqlite3-shm"], "while both have it open")
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
            _ = try Defaults(suiteName: "perm", configuration: .init(location: .directory(root), arguments: [])).write(
                "v", forKey: "k")
            #expect(mode(of: root.path) == 0o750)
            #expect(mode(of: databaseFile("perm", in: root).path) == 0o600)
        }
    }

    /// Under a restrictive umask (0177 takes the search bit off directories, 0277 the write bit off files
    /// as well) an unprivileged process still creates a root (and parents) it can use, 0700, and files
    /// 0600: its write and a later read work.
    @Test(.reachableByAnUnprivilegedChild, arguments: ["177", "277"])
    func aRestrictiveUmaskStillGivesAUsableRoot(umask: String) throws {
        try Unprivileged.withRoot { parent in
            Unprivileged.handOver(parent)
            let root = parent.appendingPathComponent("created/store")
            let options = Unprivileged.fixtureOptions + ["--umask", umask]
            let write = try runFixture(root, "perm", ["write", "k", #"{"string":"v"}"#], options: options)
            #expect(write.status == 0, "\(write.error)")
            let read = try runFixture(root, "perm", ["read", "k"], options: options)
            #expect(read.output == #"{"string":"v"}"# + "\n", "\(read.error)")
            // NB: a read that falls through the domain looks for the global domain and creates nothing.
            let miss = try runFixture(root, "perm", ["read", "absent"], options: options)
            #expect(miss.output == "nil\n", "\(miss.error)")
            #expect(mode(of: root.deletingLastPathComponent().path) == 0o700)
            try expectPrivate(root, including: ["perm.sqlite3"], "under umask \(umask)")
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("NSGlobalDomain.sqlite3").path))
        }
    }

    /// A managed directory this user may not search fails closed, as an unreadable managed file does:
    /// whether it forces a key is unknown, so the user's write fails with `permissionDenied` and
    /// changes nothing, where it used to be taken for an absent layer and write a forced key. A system
    /// directory (an entry of `XDG_CONFIG_DIRS`) the user may not enter at all is no layer of its.
    @Test(.reachableByAnUnprivilegedChild) func aManagedDirectoryThisUserMayNotSearchFailsEveryWrite() throws {
        try Unprivileged.withRoot { parent in
            let system = parent.appendingPathComponent("xdg")
            let managed = Location.managedRoot(in: system)
            try makeDefaults("app", root: managed).write("forced", forKey: "k")
            let root = parent.appendingPathComponent("store")
            try makeDefaults("app", root: root).write("mine", forKey: "k")
            Unprivileged.handOver(parent)
            chmod(managed.path, 0)
            defer { chmod(managed.path, 0o755) }
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_CONFIG_DIRS"] = system.path
            let write = try run(
                "defaults-fixture", Unprivileged.fixtureOptions + [root.path, "app", "write", "k", #"{"string":"w2"}"#],
                environment: environment, timeout: .seconds(20))
            #expect(write.status != 0, "the write must fail")
            #expect(write.error.contains("ermission"), "\(write.error)")
            #expect(try freshValues(of: root.appendingPathComponent("app.sqlite3")) == ["k": "mine"], "nothing changed")
            // NB: a system directory this user may not enter at all holds no layer of its: writes go on.
            chmod(managed.path, 0o755)
            chmod(system.path, 0)
            defer { chmod(system.path, 0o755) }
            let outside = try run(
                "defaults-fixture", Unprivileged.fixtureOptions + [root.path, "app", "write", "k", #"{"string":"w3"}"#],
                environment: environment, timeout: .seconds(20))
            #expect(outside.status == 0, "\(outside.error)")
            #expect(try freshValues(of: root.appendingPathComponent("app.sqlite3")) == ["k": "w3"])
        }
    }

    /// A schema installed into a system directory under umask 077 is readable by every user: the
    /// directories it makes are 0755 and the file 0644 whatever the umask.
    @Test func aSystemSchemaInstalledUnderARestrictiveUmaskIsReadableByAll() throws {
        try withTemporaryRoot { parent in
            let system = parent.appendingPathComponent("xdg")
            let install = try runFixture(system, "app", ["install-system-schema"], options: ["--umask", "077"])
            #expect(install.status == 0 && install.output == "installed\n", "\(install.error)")
            for directory in ["xdg", "xdg/layered-defaults", "xdg/layered-defaults/schemas"] {
                #expect(mode(of: parent.appendingPathComponent(directory).path) == 0o755, "\(directory)")
            }
            #expect(mode(of: parent.appendingPathComponent("xdg/layered-defaults/schemas/app.json").path) == 0o644)
        }
    }

    /// A healthy store this user may not read (mode 000) is a permission problem, not corruption: using it
    /// fails with ``DefaultsError/permissionDenied(path:)`` naming it, and repair refuses it, moving nothing.
    @Test(.reachableByAnUnprivilegedChild) func anUnreadableFileIsAPermissionErrorThatRepairLeavesAlone() throws {
        try Unprivileged.withRoot { parent in
            Unprivileged.handOver(parent)
            let root = parent.appendingPathComponent("store")
            let options = Unprivileged.fixtureOptions
            #expect(try runFixture(root, "locked", ["write", "k", #"{"string":"kept"}"#], options: options).status == 0)
            let file = databaseFile("locked", in: root)
            chmod(file.path, 0)
            let before = FileSnapshot.take(root)
            for operation in [["read", "k"], ["write", "k", #"{"string":"new"}"#], ["repair"]] {
                let refused = try runFixture(root, "locked", operation, options: options)
                #expect(refused.status == 2, "\(operation)")
                #expect(refused.error == "defaults-fixture: \(DefaultsError.permissionDenied(path: file.path))\n", "\(operation)")
            }
            #expect(FileSnapshot.take(root) == before, "nothing moved, created or changed")
            chmod(file.path, 0o600)
            #expect(try freshValues(of: file) == ["k": "kept"])
        }
    }

    /// A root this user may not search is a permission problem too: looking a domain up, listing the
    /// domains and opening one fail with ``DefaultsError/permissionDenied(path:)`` naming the root,
    /// instead of answering "none" or falling back to an empty read-only domain.
    @Test(.reachableByAnUnprivilegedChild) func anUnsearchableRootIsAPermissionError() throws {
        try Unprivileged.withRoot { parent in
            Unprivileged.handOver(parent)
            let root = parent.appendingPathComponent("store")
            let options = Unprivileged.fixtureOptions
            #expect(try runFixture(root, "hidden", ["write", "k", #"{"string":"kept"}"#], options: options).status == 0)
            chmod(root.path, 0o600)
            let before = FileSnapshot.take(root)
            for operation in [["domains"], ["exists"], ["read", "k"], ["write", "k", #"{"string":"new"}"#], ["repair"]] {
                let refused = try runFixture(root, "hidden", operation, options: options)
                #expect(refused.status == 2, "\(operation): \(refused.output)")
                #expect(refused.error == "defaults-fixture: \(DefaultsError.permissionDenied(path: root.path))\n", "\(operation)")
            }
            #expect(FileSnapshot.take(root) == before, "nothing moved, created or changed")
            chmod(root.path, 0o700)
            #expect(try freshValues(of: databaseFile("hidden", in: root)) == ["k": "kept"])
        }
    }
}
