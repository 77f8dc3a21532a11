import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults
@testable import prefs

/// `prefs backup` and `prefs restore`: thin doors over `Defaults.Domain.backup` and `Defaults.Domain.restore`.
@Suite struct BackupRestoreCommandTests {
    @Test func aBackupRestoresTheDomainAsItWas() throws {
        try withTestRoot { root in
            try root.prefs("write", "app", "k", "-int", "1").requireSuccess()
            let backup = root.url.appendingPathComponent("app-backup.sqlite3").path
            try root.prefs("backup", "app", backup).requireSuccess()
            #expect(try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? Int == 0o600)
            try root.prefs("write", "app", "k", "-int", "2").requireSuccess()
            try root.prefs("write", "app", "added", "x").requireSuccess()
            let restored = root.prefs("restore", "app", backup)
            #expect(restored.status == .success && restored.output.isEmpty && restored.error.isEmpty)
            #expect(try root.stored("app") == ["k": 1])
        }
    }

    @Test func anExistingFileIsKeptUnlessReplaced() throws {
        try withTestRoot { root in
            try root.prefs("write", "app", "k", "v").requireSuccess()
            let file = root.url.appendingPathComponent("notes.txt")
            try Data("mine".utf8).write(to: file)
            let refused = root.prefs("backup", "app", file.path)
            #expect(refused.status == .usage)
            #expect(refused.errorLines == ["prefs: \(DefaultsError.backupExists(path: file.path))"])
            #expect(try Data(contentsOf: file) == Data("mine".utf8))
            try root.prefs("backup", "--replace", "app", file.path).requireSuccess()
            #expect(try Data(contentsOf: file) != Data("mine".utf8))
        }
    }

    @Test func aMissingDomainIsNotFoundAndNothingIsWritten() throws {
        try withTestRoot { root in
            let file = root.url.appendingPathComponent("backup.sqlite3")
            let result = root.prefs("backup", "nowhere", file.path)
            #expect(result.status == .notFound && result.errorLines == ["prefs: Domain nowhere does not exist"])
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }

    /// A file that is not a backup is refused with a usage error that names it and no value, and the
    /// domain is unchanged (a missing one, in a system-wide layer too, is not created).
    @Test func aBadBackupChangesNothing() throws {
        try withTestRoot { root in
            try root.prefs("write", "app", "k", "secret-value").requireSuccess()
            let bad = root.url.appendingPathComponent("bad.sqlite3")
            try Data("secret-value, not a database at all".utf8).write(to: bad)
            let refused = root.prefs("restore", "app", bad.path)
            #expect(refused.status == .usage)
            #expect(refused.errorLines.count == 1 && refused.error.contains(bad.path) && !refused.error.contains("secret"))
            #expect(try root.stored("app") == ["k": "secret-value"])
            #expect(root.prefs("--managed", "restore", "app", bad.path).status == .usage)
            #expect(
                !FileManager.default.fileExists(
                    atPath: Location.managedRoot(in: root.systemDirectory).appendingPathComponent("app.sqlite3").path))
        }
    }

    /// Restoring into a system-wide layer leaves a file every user can read, as a write there does.
    @Test func aRestoreIntoAManagedDomainIsReadableByEveryone() throws {
        try withTestRoot { root in
            try root.prefs("write", "app", "k", "forced").requireSuccess()
            let backup = root.url.appendingPathComponent("backup.sqlite3").path
            try root.prefs("backup", "app", backup).requireSuccess()
            try root.prefs("--managed", "restore", "app", backup).requireSuccess()
            let file = Location.managedRoot(in: root.systemDirectory).appendingPathComponent("app.sqlite3")
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o644)
            #expect(root.prefs("--managed", "read", "app", "k").output == "forced\n")
        }
    }
}
