import Foundation
import PackageTestSupport
import Synchronization
import Testing

@testable import LayeredDefaults

/// `Defaults.Domain.backup` and `Defaults.Domain.restore`: the one safe door out of a domain's file and back in,
/// and what happens to a store when a file is put at its path by hand instead.
@Suite(.hangLimit(minutes: 1))
struct BackupRestoreTests {
    private func open(_ suite: String, in root: URL) throws -> Defaults {
        try Defaults(suiteName: suite, configuration: .init(location: .directory(root), arguments: [], systemDirectories: []))
    }

    /// A backup holds the writes still in the domain's `-wal` (this process has not checkpointed them),
    /// is one file of mode 0600, and leaves nothing else beside it.
    @Test func aBackupHoldsWritesStillInTheLog() throws {
        try withTemporaryRoot { root in
            let defaults = try open("app", in: root)
            for index in 0..<50 { try defaults.write(.integer(index), forKey: "k\(index)") }
            #expect(mode(of: databaseFile("app", in: root).path + "-wal") != nil, "the writes are in the log")
            let backups = root.appendingPathComponent("backups")
            try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: false)
            let backup = backups.appendingPathComponent("app-backup.sqlite3")
            try Defaults.Domain("app", location: .directory(root)).backup(to: backup)
            #expect(try freshValues(of: backup).count == 50)
            #expect(mode(of: backup.path) == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: backups.path) == ["app-backup.sqlite3"])
        }
    }

    /// A backup killed (SIGKILL) before its copy is complete, here while the copy's sync stalls for good,
    /// leaves what it was writing in the destination's directory; a backup made meanwhile leaves it
    /// alone (its process is alive), and the next backup after the kill removes it: only the backups
    /// remain.
    @Test func aBackupKilledMidCopyLeavesNothingAfterTheNextBackup() throws {
        try withTemporaryRoot { root in
            let defaults = try open("app", in: root)
            for index in 0..<50 { try defaults.write(.integer(index), forKey: "k\(index)") }
            let backups = root.appendingPathComponent("backups")
            try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: false)
            let entries = { try FileManager.default.contentsOfDirectory(atPath: backups.path).sorted() }
            let killed = try ChildProcess.fixture(
                root, "app", ["backup", backups.appendingPathComponent("first.sqlite3").path],
                options: ["--stalled-sync", "600000"])
            // NB: the child locks its staging directory only after making it, and a sweep may take an
            // unlocked one (the child then makes another): wait for the copy inside it, made once locked.
            let isCopying = {
                let staged = try entries()
                guard staged.count == 1 else { return false }
                let inside = try? FileManager.default.contentsOfDirectory(atPath: backups.appendingPathComponent(staged[0]).path)
                return inside?.isEmpty == false
            }
            let deadline = ContinuousClock.now + .seconds(30)
            while try !isCopying() && ContinuousClock.now < deadline { usleep(10_000) }
            let inProgress = try entries()
            #expect(inProgress.count == 1 && inProgress[0].hasPrefix(".first.sqlite3.backup-"), "\(inProgress)")

            try Defaults.Domain("app", location: .directory(root)).backup(to: backups.appendingPathComponent("second.sqlite3"))
            #expect(try entries() == (inProgress + ["second.sqlite3"]).sorted(), "a backup in progress is left alone")
            killed.send(SIGKILL)
            _ = try killed.wait(before: .now + .seconds(30))
            #expect(try entries() == (inProgress + ["second.sqlite3"]).sorted(), "the kill left it")

            try Defaults.Domain("app", location: .directory(root)).backup(to: backups.appendingPathComponent("third.sqlite3"))
            #expect(try entries() == ["second.sqlite3", "third.sqlite3"], "nothing of the killed backup is left")
            #expect(try freshValues(of: backups.appendingPathComponent("third.sqlite3")).count == 50)
        }
    }

    /// An existing file is never overwritten silently; `replacing: true` replaces it.
    @Test func aBackupRefusesAnExistingFileUnlessReplacing() throws {
        try withTemporaryRoot { root in
            try open("app", in: root).write("v", forKey: "k")
            let backup = root.appendingPathComponent("kept.txt")
            try Data("mine".utf8).write(to: backup)
            #expect(throws: DefaultsError.backupExists(path: backup.path)) {
                try Defaults.Domain("app", location: .directory(root)).backup(to: backup)
            }
            #expect(try Data(contentsOf: backup) == Data("mine".utf8))
            try Defaults.Domain("app", location: .directory(root)).backup(to: backup, replacing: true)
            #expect(try freshValues(of: backup) == ["k": "v"])
            #expect(mode(of: backup.path) == 0o600)
            #expect(throws: DefaultsError.noSuchDomain(suite: "missing")) {
                try Defaults.Domain("missing", location: .directory(root)).backup(to: root.appendingPathComponent("m"))
            }
            #expect(mode(of: root.appendingPathComponent("m").path) == nil)
        }
    }

    /// A restore into a domain another instance has open: that instance reads the restored content at
    /// once, its observer is told, every key of the old content is gone, and another connection (as
    /// another process would open) sees the same.
    @Test func aRestoreIsSeenByTheOpenStoreAndItsObservers() throws {
        try withTemporaryRoot { root in
            let defaults = try open("app", in: root)
            try defaults.write("backed up", forKey: "k")
            let backup = root.appendingPathComponent("backup.sqlite3")
            try Defaults.Domain("app", location: .directory(root)).backup(to: backup)
            try defaults.write("later", forKey: "k")
            try defaults.write("later", forKey: "added")
            #expect(try defaults.value(forKey: "k") == "later")  // the view knows it
            let seen = Mutex<[PreferenceValue?]>([])
            let delivered = DispatchSemaphore(value: 0)
            let observation = defaults.observe(.key("k"), initial: false) { value in
                seen.withLock { $0.append(value) }
                delivered.signal()
            }
            defer { observation.cancel() }
            try Defaults.Domain("app", location: .directory(root), systemDirectories: []).restore(from: backup)
            #expect(try defaults.persistentValues() == ["k": "backed up"])
            #expect(try defaults.value(forKey: "added") == nil)
            #expect(try freshValues(of: databaseFile("app", in: root)) == ["k": "backed up"])
            _ = delivered.wait(timeout: .now() + 10)
            #expect(seen.withLock { $0 } == ["backed up"])
            try defaults.write("after", forKey: "k")
            #expect(try freshValues(of: databaseFile("app", in: root)) == ["k": "after"])
            #expect(try integrityCheck(of: databaseFile("app", in: root)) == "ok")
        }
    }

    /// A file that is not a healthy store of ours is refused, typed, and nothing changes: not the
    /// domain, not the file (nor what a link points to).
    @Test(arguments: BadFile.allCases) func aBadBackupIsRefusedChangingNothing(_ kind: BadFile) throws {
        try withTemporaryRoot { root in
            let defaults = try open("app", in: root)
            try defaults.write("mine", forKey: "k")
            let backups = root.appendingPathComponent("backups")
            try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: false)
            let outside = try kind.make(suite: "bad", in: backups)
            let before = FileSnapshot.take(backups)?.ignoringIndexContent
            let outsideBefore = outside.flatMap(FileSnapshot.take)
            let backup = databaseFile("bad", in: backups)
            var thrown: (any Error)?
            do {
                try Defaults.Domain("app", location: .directory(root), systemDirectories: []).restore(from: backup)
            } catch {
                thrown = error
            }
            let error = try #require(thrown as? DefaultsError, "refused, typed: \(String(describing: thrown))")
            switch error {
            case .invalidBackup(let path, _), .unsafePath(let path), .hardLinked(let path):
                #expect(path.hasPrefix(backup.path), "\(error)")
            default:
                Issue.record("unexpected \(error)")
            }
            #expect(FileSnapshot.take(backups)?.ignoringIndexContent == before)
            #expect(outside.flatMap(FileSnapshot.take) == outsideBefore)
            #expect(try defaults.persistentValues() == ["k": "mine"])
            #expect(try freshValues(of: databaseFile("app", in: root)) == ["k": "mine"])
        }
    }

    /// A backup never replaces a database that has a log beside it (a domain in use, here the backed-up
    /// domain itself and another one), nor such a log: SQLite would mix the copy with the old pages.
    @Test func aBackupNeverReplacesADatabaseInUseOrItsLog() throws {
        try withTemporaryRoot { root in
            let app = try open("app", in: root)
            try app.write("v", forKey: "k")
            let other = try open("other", in: root)
            try other.write("kept", forKey: "k")
            for target in [
                databaseFile("other", in: root).path, databaseFile("other", in: root).path + "-wal",
                databaseFile("app", in: root).path, databaseFile("app", in: root).path + "-shm",
            ] {
                #expect(throws: DefaultsError.backupDestinationInUse(path: target)) {
                    try Defaults.Domain("app", location: .directory(root)).backup(
                        to: URL(fileURLWithPath: target), replacing: true)
                }
            }
            #expect(try other.value(forKey: "k") == "kept")
            #expect(try freshValues(of: databaseFile("other", in: root)) == ["k": "kept"])
        }
    }

    /// A restore takes the backup's rows, never its pages: a backup of another page size restores its
    /// rows into the domain's own file, which keeps its page size; and rows a write may not store are refused.
    @Test func aRestoreTakesTheRowsNeverThePages() throws {
        try withTemporaryRoot { root in
            let backup = root.appendingPathComponent("paged.sqlite3")
            try open("source", in: root).write("restored", forKey: "k")
            try Defaults.Domain("source", location: .directory(root)).backup(to: backup)
            let connection = try Connection(path: backup.path, busyTimeoutMilliseconds: 1000)
            try connection.execute("PRAGMA page_size = 8192; VACUUM")
            #expect(try connection.integer("PRAGMA page_size") == 8192)
            connection.close()
            let defaults = try open("app", in: root)
            try defaults.write("old", forKey: "gone")
            try Defaults.Domain("app", location: .directory(root), systemDirectories: []).restore(from: backup)
            #expect(try defaults.persistentValues() == ["k": "restored"])
            try defaults.write("after", forKey: "new")
            #expect(try freshValues(of: databaseFile("app", in: root)) == ["k": "restored", "new": "after"])
            let live = try Connection(path: databaseFile("app", in: root).path, busyTimeoutMilliseconds: 1000)
            defer { live.close() }
            #expect(try live.integer("PRAGMA page_size") == 4096)

            try expectRefused(
                [
                    ("INSERT INTO preferences VALUES ('', 'string', 'x')", "it holds an empty key"),
                    (
                        "INSERT INTO preferences VALUES ('deep', 'array', '"
                            + String(repeating: "{\"array\":[", count: 101) + String(repeating: "]}", count: 101) + "')",
                        "the value of 'deep' is one no write may store"
                    ),
                    (
                        "INSERT INTO preferences VALUES ('bad', 'integer', 'not a number')",
                        "the value of 'bad' does not match its type"
                    ),
                ], backingUp: "source", in: root)
        }
    }

    /// A restore reads rows, never definitions: a backup whose layout is not exactly the one the store
    /// makes is refused naming why, nothing changed or created. Before, a generated `value` column
    /// (`'computed-' || key`, storing nothing) restored `theme = computed-theme`, and one generated as
    /// `hex(zeroblob(32000000))` made a 12 KB backup write 256 MB into the domain; a trigger and another
    /// table were taken along silently.
    @Test func aBackupWhoseLayoutIsNotOursIsRefused() throws {
        try withTemporaryRoot { root in
            try open("source", in: root).write("restored", forKey: "k")
            let generated = "the column 'value' of its table 'preferences' is generated or hidden, not stored"
            let columns = "its table 'preferences' does not have the columns LayeredDefaults makes"
            func preferences(_ columns: String) -> String {
                "DROP TABLE preferences; CREATE TABLE preferences (\(columns)) WITHOUT ROWID; "
                    + "INSERT INTO preferences (key, type) VALUES ('theme', 'string')"
            }
            try expectRefused(
                [
                    (preferences("key TEXT PRIMARY KEY NOT NULL, type TEXT NOT NULL, value AS ('computed-' || key)"), generated),
                    (
                        preferences("key TEXT PRIMARY KEY NOT NULL, type TEXT NOT NULL, value AS (hex(zeroblob(32))) STORED"),
                        generated
                    ),
                    (
                        preferences("key TEXT PRIMARY KEY NOT NULL, type TEXT NOT NULL, value NOT NULL DEFAULT 'x', extra"),
                        columns
                    ),
                    (preferences("key TEXT PRIMARY KEY NOT NULL, type TEXT NOT NULL, value NOT NULL DEFAULT 'x'"), columns),
                    (preferences("key PRIMARY KEY NOT NULL, type TEXT NOT NULL, value NOT NULL DEFAULT 'x'"), columns),
                    (
                        "ALTER TABLE migrations ADD COLUMN extra",
                        "its table 'migrations' does not have the columns LayeredDefaults makes"
                    ),
                    (
                        "CREATE TRIGGER swallow BEFORE INSERT ON preferences BEGIN SELECT RAISE(IGNORE); END",
                        "it holds a trigger that LayeredDefaults does not make"
                    ),
                    ("CREATE TABLE extra (x)", "it holds a table that LayeredDefaults does not make"),
                    ("CREATE VIEW shown AS SELECT key FROM preferences", "it holds a view that LayeredDefaults does not make"),
                    ("CREATE INDEX typed ON preferences (type)", "it holds an index that LayeredDefaults does not make"),
                ], backingUp: "source", in: root)
        }
    }

    /// What a restore reads is bounded by what the file holds: rows standing for more bytes than the
    /// bound are refused, measured before they are decoded; rows at the bound are read. (Stored rows
    /// never pass the file's size; only a column that is computed, refused above, could.)
    @Test func theRowsOfABackupStandForNoMoreBytesThanTheFileHolds() throws {
        try withTemporaryRoot { root in
            // Keys and texts as stored, a number as 8 bytes: 2 + 5, then 1 + 8.
            try open("source", in: root).replacePersistentValues(["ab": "hello", "n": 42])
            let backup = root.appendingPathComponent("rows.sqlite3")
            try Defaults.Domain("source", location: .directory(root)).backup(to: backup)
            let connection = try Connection(path: backup.path, busyTimeoutMilliseconds: 1000)
            defer { connection.close() }
            let table = PreferencesTable(connection: connection, suite: "app")
            #expect(try table.exactValues(standingForAtMost: 16) == ["ab": "hello", "n": 42])
            #expect {
                try table.exactValues(standingForAtMost: 15)
            } throws: { error in
                (error as? PreferencesTable.InexactRow)?.reason == "its rows stand for more bytes than the file holds (15)"
            }
        }
    }

    /// A backup whose rows do not read back exactly, as the file readers read a document, is refused,
    /// nothing changed or created: a key or a text that is not UTF-8 (read with U+FFFD, `a<FF>b` and
    /// `a<FE>b` were one key, a value lost, and `C0 AF` two U+FFFD), a key that is not text, two rows
    /// of one key (canonically equivalent spellings), a migration name that is not UTF-8 or is held twice.
    @Test func aBackupWhoseRowsDoNotReadExactlyIsRefused() throws {
        try withTemporaryRoot { root in
            try open("source", in: root).write("restored", forKey: "k")
            let notUTF8Key = "a key of its rows is not UTF-8 text"
            try expectRefused(
                [
                    (
                        "INSERT INTO preferences VALUES (CAST(X'61FF62' AS TEXT), 'string', 'x'), (CAST(X'61FE62' AS TEXT), 'string', 'y')",
                        notUTF8Key
                    ),
                    ("INSERT INTO preferences VALUES (X'6162', 'string', 'x')", notUTF8Key),
                    (
                        "INSERT INTO preferences VALUES ('s', 'string', CAST(X'C0AF' AS TEXT))",
                        "the value of 's' is text that is not UTF-8"
                    ),
                    (
                        "INSERT INTO preferences VALUES ('list', 'array', '{\"array\":[{\"string\":\"' || CAST(X'C0AF' AS TEXT) || '\"}]}')",
                        "the value of 'list' is text that is not UTF-8"
                    ),
                    (
                        "INSERT INTO preferences VALUES ('\u{E9}', 'string', 'x'), ('e\u{301}', 'string', 'y')",
                        "two of its rows hold the key '\u{E9}'"
                    ),
                    (
                        "INSERT INTO migrations VALUES (CAST(X'6DFF' AS TEXT), 1)",
                        "a migration it records is not named in UTF-8 text"
                    ),
                    (
                        "INSERT INTO migrations VALUES ('\u{E9}', 1), ('e\u{301}', 2)",
                        "two of its migration records name '\u{E9}'"
                    ),
                ], backingUp: "source", in: root)
        }
    }

    /// For each of `cases`, a backup of `suite` changed by the SQL of the case: restoring it is refused
    /// with `invalidBackup` and the case's reason, and the domain restored into is not created.
    private func expectRefused(
        _ cases: [(sql: String, reason: String)], backingUp suite: String, in root: URL,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for (sql, reason) in cases {
            let refused = root.appendingPathComponent("refused.sqlite3")
            unlink(refused.path)
            try Defaults.Domain(suite, location: .directory(root)).backup(to: refused)
            let writer = try Connection(path: refused.path, busyTimeoutMilliseconds: 1000)
            try writer.execute(sql)
            writer.close()
            #expect(throws: DefaultsError.invalidBackup(path: refused.path, reason: reason), sourceLocation: sourceLocation) {
                try Defaults.Domain("fresh", location: .directory(root), systemDirectories: []).restore(from: refused)
            }
            #expect(mode(of: databaseFile("fresh", in: root).path) == nil, "nothing created", sourceLocation: sourceLocation)
        }
    }

    /// A restore follows the forced-key rule of every whole-domain change: the forced key's row is kept,
    /// and a backup that would change it is refused, nothing changed.
    @Test func aRestoreKeepsAForcedKeysRow() throws {
        try withTemporaryRoot { root in
            let (xdg, user) = (root.appendingPathComponent("xdg"), root.appendingPathComponent("user"))
            try open("app", in: user).replacePersistentValues(["locked": "mine", "other": "free"])
            try open("managed", in: Location.managedRoot(in: xdg)).write("x", forKey: "unrelated")
            try Defaults(
                suiteName: "app",
                configuration: .init(location: .directory(Location.managedRoot(in: xdg)), arguments: [], systemDirectories: [])
            ).write("managed", forKey: "locked")
            func backup(_ values: [String: PreferenceValue], _ name: String) throws -> URL {
                try open(name, in: root).replacePersistentValues(values)
                let file = root.appendingPathComponent(name + "-backup.sqlite3")
                try Defaults.Domain(name, location: .directory(root)).backup(to: file)
                return file
            }
            let changing = try backup(["locked": "from-backup", "k": "v"], "changing")
            #expect(throws: DefaultsError.forced(suite: "app", key: "locked")) {
                try Defaults.Domain("app", location: .directory(user), systemDirectories: [xdg]).restore(from: changing)
            }
            #expect(try freshValues(of: databaseFile("app", in: user)) == ["locked": "mine", "other": "free"])
            let keeping = try backup(["k": "v"], "keeping")
            let kept = try Defaults.Domain("app", location: .directory(user), systemDirectories: [xdg]).restore(from: keeping)
            #expect(kept == ["locked"], "the kept key is named, as replacePersistentValues names it")
            #expect(try freshValues(of: databaseFile("app", in: user)) == ["locked": "mine", "k": "v"])
        }
    }

    /// An empty file and the domain's own file are refused too, and a refused restore of a missing domain
    /// creates nothing.
    @Test func anEmptyOrOwnFileIsRefused() throws {
        try withTemporaryRoot { root in
            let empty = root.appendingPathComponent("empty.sqlite3")
            #expect(FileManager.default.createFile(atPath: empty.path, contents: nil))
            #expect(throws: DefaultsError.invalidBackup(path: empty.path, reason: "it is empty")) {
                try Defaults.Domain("app", location: .directory(root), systemDirectories: []).restore(from: empty)
            }
            #expect(mode(of: databaseFile("app", in: root).path) == nil, "nothing created")
            try open("app", in: root).write("v", forKey: "k")
            let own = databaseFile("app", in: root)
            #expect(throws: DefaultsError.invalidBackup(path: own.path, reason: "it is the domain's own file")) {
                try Defaults.Domain("app", location: .directory(root), systemDirectories: []).restore(from: own)
            }
        }
    }

    /// The dangerous way, `mv` over the file of an open store: the store notices that its path names
    /// another file, says so, and refuses to write (its commits would go to a log the new file's readers
    /// take as the new file's).
    @Test func aStoreRefusesToWriteOnceAFileIsMovedOverIt() throws {
        try withTemporaryRoot { root in
            let other = root.appendingPathComponent("other")
            try open("app", in: other).write("backup", forKey: "k")
            let defaults = try open("app", in: root)
            try defaults.write("mine", forKey: "k")
            #expect(defaults.persistentFileIsCurrent)
            #expect(rename(databaseFile("app", in: other).path, databaseFile("app", in: root).path) == 0)
            #expect(!defaults.persistentFileIsCurrent)
            #expect(throws: DefaultsError.replacedFile(suite: "app", path: databaseFile("app", in: root).path)) {
                try defaults.write("lost", forKey: "k")
            }
        }
    }

    /// A store whose file was deleted and created anew by another instance (as `prefs watch` lets its
    /// store go, to follow the new file) closes without deleting the `-wal` and `-shm` by name, which
    /// now belong to the new file: the new file's commits still in its log survive.
    ///
    /// NB: SQLite itself sees that the file has moved (`SQLITE_FCNTL_HAS_MOVED`) and then skips the
    /// checkpoint and the deletion on close; this pins that behaviour, which the watch relies on.
    @Test func closingAStoreWhoseFileWasReplacedKeepsTheNewFilesLog() throws {
        try withTemporaryRoot { root in
            let file = databaseFile("app", in: root)
            var old: Defaults? = try open("app", in: root)
            try old?.write("old", forKey: "k")
            for suffix in ["", "-wal", "-shm"] { unlink(file.path + suffix) }
            let new = try open("app", in: root)
            #expect(new.persistentStoreForTesting !== old?.persistentStoreForTesting, "a new file, a new store")
            try new.write("new", forKey: "k")
            // NB: at once, well within the idle checkpoint's quiet period: the commit is in the log only.
            old = nil
            #expect(mode(of: file.path + "-wal") != nil, "the new file's log is still there")
            #expect(try freshValues(of: file) == ["k": "new"])
            #expect(try new.persistentValues() == ["k": "new"])
        }
    }
}
