import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

@testable import prefs

/// `prefs --system` and `--managed` write the system-wide layers under `$XDG_CONFIG_DIRS` (a temporary
/// directory here); the user's domains then see them.
@Suite struct SystemLayerCommandTests {
    @Test func managedWriteForcesTheUsersKey() throws {
        try withTestRoot { root in
            try root.prefs("write", "app", "k", "mine").requireSuccess()
            try root.prefs("--managed", "write", "app", "k", "managed").requireSuccess()
            let file = Location.managedRoot(in: root.systemDirectory).appendingPathComponent("app.sqlite3")
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o644)
            let refused = root.prefs("write", "app", "k", "again")
            #expect(refused.status == .storage, "the store refused the write: exit status 3")
            #expect(
                refused.errorLines == [
                    "prefs: Cannot write key 'k' in domain 'app': its value is forced by the managed domain (layered-defaults/managed under $XDG_CONFIG_DIRS); nothing was changed"
                ])
            #expect(try root.stored("app") == ["k": "mine"], "nothing changed")
            #expect(root.prefs("--managed", "read", "app", "k").output == "managed\n")
        }
    }

    @Test func systemWriteIsBelowTheUsersDomain() throws {
        try withTestRoot { root in
            try root.prefs("--system", "write", "app", "k", "system").requireSuccess()
            let defaults = try Defaults(
                suiteName: "app",
                configuration: .init(
                    location: .directory(root.url), arguments: [], systemDirectories: [root.systemDirectory]))
            #expect(try defaults.value(forKey: "k") == "system")
            try root.prefs("write", "app", "k", "mine").requireSuccess()
            #expect(try defaults.value(forKey: "k") == "mine")
            #expect(root.prefs("--system", "read", "app", "k").output == "system\n")
        }
    }

    @Test func layerOptionsConflict() throws {
        try withTestRoot { root in
            #expect(root.prefs("--system", "--managed", "read", "app").status == .usage)
            #expect(root.prefs("--system", "--root", root.url.path, "read", "app").status == .usage)
            #expect(!FileManager.default.fileExists(atPath: root.systemDirectory.path))
        }
    }

    /// The real executable, with `XDG_CONFIG_DIRS` in its environment: the first directory is the target.
    @Test func processReadsTheEnvironment() throws {
        try withTemporaryRoot { root in
            let first = root.appendingPathComponent("first")
            let second = root.appendingPathComponent("second")
            let environment = [
                "LAYERED_DEFAULTS_HOME": root.appendingPathComponent("user").path,
                "XDG_CONFIG_DIRS": "\(first.path):\(second.path)",
            ]
            let managed = try run("prefs", ["--managed", "write", "app", "k", "managed"], environment: environment)
            #expect(managed.status == 0)
            #expect(
                FileManager.default.fileExists(atPath: Location.managedRoot(in: first).appendingPathComponent("app.sqlite3").path)
            )
            #expect(!FileManager.default.fileExists(atPath: second.path), "absent layers create nothing")
            let refused = try run("prefs", ["write", "app", "k", "mine"], environment: environment)
            #expect(refused.status == ExitStatus.storage.rawValue)
        }
    }
}

extension RunResult {
    /// Fails the test with the error lines unless the command succeeded.
    func requireSuccess() throws {
        try #require(status == .success, "\(errorLines)")
    }
}
