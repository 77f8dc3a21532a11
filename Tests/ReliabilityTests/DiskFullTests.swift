import CSQLite
import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// A full disk: the write fails with ``DefaultsError/diskFull(suite:key:)``, nothing else changes, and
/// the store works again once there is room.
@Suite(.hangLimit(minutes: 1))
struct DiskFullTests {
    /// `PRAGMA max_page_count` caps the database at its current size, so SQLite fails the next write
    /// that needs a new page with `SQLITE_FULL`, exactly as on a full disk. Every write API throws (or
    /// reports) `diskFull`; the in-memory view of both instances, the file, and every earlier value are
    /// unchanged; raising the cap again lets the same write through.
    @Test func aFullDatabaseFailsTheWriteAndKeepsEverything() throws {
        try withTemporaryRoot { root in
            let reported = ReportedErrors()
            let defaults = try Defaults(
                suiteName: "full", configuration: .init(location: .directory(root), arguments: [], errorHandler: reported.record))
            let twin = try Defaults(suiteName: "full", configuration: .init(location: .directory(root), arguments: []))
            for index in 0..<50 { try defaults.write(.string("value \(index)"), forKey: "k\(index)") }
            let before = try defaults.persistentValues()
            let file = databaseFile("full", in: root)

            try setMaximumPageCount(of: defaults) { $0 }
            let big = PreferenceValue.data(Data(repeating: 0xAB, count: 256 * 1024))
            #expect(throws: DefaultsError.diskFull(suite: "full", key: "big")) { try defaults.write(big, forKey: "big") }
            #expect(throws: DefaultsError.diskFull(suite: "full", key: "k1")) { try defaults.write(big, forKey: "k1") }
            #expect(throws: DefaultsError.diskFull(suite: "full", key: "k2")) { try defaults.update(forKey: "k2") { $0 = big } }
            #expect(throws: DefaultsError.diskFull(suite: "full", key: nil)) {
                try defaults.transaction { domain in
                    try domain.write(.string("small"), forKey: "small")
                    try domain.write(nil, forKey: "k3")
                    try domain.write(big, forKey: "big")
                }
            }
            defaults.set(Data(repeating: 1, count: 256 * 1024), forKey: "k4")
            #expect(reported.all == [.diskFull(suite: "full", key: "k4")])

            for instance in [defaults, twin] {
                for (key, value) in before { #expect(try instance.persistentValue(forKey: key) == value, "\(key) in memory") }
                #expect(try instance.persistentValue(forKey: "big") == nil)
                #expect(try instance.persistentValue(forKey: "small") == nil)
            }
            #expect(try freshValues(of: file) == before)
            #expect(try integrityCheck(of: file) == "ok")

            try setMaximumPageCount(of: defaults) { _ in 1_073_741_823 }
            try defaults.write(big, forKey: "big")
            try defaults.update(forKey: "k2") { $0 = big }
            var after = before
            after["big"] = big
            after["k2"] = big
            #expect(try twin.persistentValue(forKey: "big") == big)
            #expect(try freshValues(of: file) == after)
        }
    }

    /// A real write failure from the operating system, in the middle of appending to the log: a child
    /// process whose files may not grow past 64 KiB (`RLIMIT_FSIZE`, `SIGXFSZ` ignored) fails a large
    /// write with ``DefaultsError/fileTooLarge(suite:key:)`` naming suite and key, leaving every earlier
    /// value and a healthy file; the next process, with room, writes it.
    ///
    /// NB: SQLite says `SQLITE_FULL` only for `ENOSPC`; this `EFBIG`, like a quota's `EDQUOT`, is
    /// `SQLITE_IOERR_WRITE` (778), told apart by the errno SQLite keeps (`sqlite3_system_errno`).
    @Test func aWriteTheFileSystemRefusesFailsTypedAndLosesNothing() throws {
        try withTemporaryRoot { root in
            #expect(try runFixture(root, "quota", ["write-many", "k", "50"]).status == 0)
            let file = databaseFile("quota", in: root)
            let before = try freshValues(of: file)
            let refused = try runFixture(
                root, "quota", ["write-data", "big", "200000"], options: ["--file-size-limit", "65536"])
            #expect(refused.status == 2)
            #expect(refused.error == "defaults-fixture: \(DefaultsError.fileTooLarge(suite: "quota", key: "big"))\n")
            #expect(try freshValues(of: file) == before)
            #expect(try integrityCheck(of: file) == "ok")
            #expect(try runFixture(root, "quota", ["write-data", "big", "200000"]).status == 0)
            #expect(try freshValues(of: file)["big"] == .data(Data(repeating: 0xA5, count: 200000)))
        }
    }

    /// A new domain whose files may not grow enough to hold SQLite's index (`-shm`, 32 KiB) fails with the
    /// same typed error, not SQLite's "disk I/O error" (`SQLITE_IOERR_SHMSIZE`, as on a full disk), and
    /// the next process, with room, creates it.
    @Test func aNewDomainTheFileSystemRefusesFailsTyped() throws {
        try withTemporaryRoot { root in
            let refused = try runFixture(
                root, "fresh", ["write", "k", #"{"string":"v"}"#], options: ["--file-size-limit", "16384"])
            #expect(refused.status == 2)
            #expect(refused.error == "defaults-fixture: \(DefaultsError.fileTooLarge(suite: "fresh", key: nil))\n")
            #expect(try runFixture(root, "fresh", ["write", "k", #"{"string":"v"}"#]).status == 0)
            #expect(try freshValues(of: databaseFile("fresh", in: root)) == ["k": "v"])
        }
    }

    /// A new domain on a really full disk (a 256 KiB file system of its own, with 16 KiB left: room for the
    /// database's first page, not for SQLite's 32 KiB index) fails with ``DefaultsError/diskFull(suite:key:)``,
    /// not SQLite's "disk I/O error" (`SQLITE_IOERR_SHMSIZE`).
    ///
    /// NB: the file system is a tmpfs mounted in a mount namespace of the child's own (root only: elsewhere
    /// the test is cancelled).
    @Test func aNewDomainOnAFullDiskSaysDiskFull() throws {
        try withTemporaryRoot { parent in
            let script = """
                mount -t tmpfs -o size=256k tmpfs "$1" || exit 99
                head -c $(( $(stat -f -c '%a * %S' "$1") - 16384 )) /dev/zero > "$1/filler" || exit 99
                shift
                exec "$@"
                """
            let child = try runInOwnMountNamespace(
                script,
                [
                    parent.path, BuiltProducts.url(of: "defaults-fixture").path,
                    parent.appendingPathComponent("store").path, "fresh", "write", "k", #"{"string":"v"}"#,
                ])
            #expect(child.status == 2)
            #expect(child.error == "defaults-fixture: \(DefaultsError.diskFull(suite: "fresh", key: nil))\n")
        }
    }

    /// A backup onto a full disk (a 256 KiB file system of its own, the domain holding more) fails naming
    /// the destination, whose disk it is, not the domain: before, it said "Cannot write in domain 'app':
    /// the disk ... is full". Nothing is left on the full disk and the domain is unchanged.
    ///
    /// NB: the file system is a tmpfs mounted in a mount namespace of the child's own (root only: elsewhere
    /// the test is cancelled); the script lists what the backup left there before the namespace ends.
    @Test func aBackupOntoAFullDiskNamesTheDestination() throws {
        try withTemporaryRoot { parent in
            let (user, full) = (parent.appendingPathComponent("user"), parent.appendingPathComponent("full"))
            try FileManager.default.createDirectory(at: full, withIntermediateDirectories: false)
            let defaults = try Defaults(
                suiteName: "app", configuration: .init(location: .directory(user), arguments: [], systemDirectories: []))
            try defaults.write(.data(Data(repeating: 0xA5, count: 600_000)), forKey: "big")
            let destination = full.appendingPathComponent("app-backup.sqlite3").path
            let script = """
                mount -t tmpfs -o size=256k tmpfs "$1" || exit 99
                full=$1
                shift
                "$@"
                status=$?
                ls -A "$full"
                exit $status
                """
            let child = try runInOwnMountNamespace(
                script, [full.path, BuiltProducts.url(of: "prefs").path, "--root", user.path, "backup", "app", destination])
            #expect(child.status == 3)
            #expect(child.error == "prefs: Cannot write the backup '\(destination)': No space left on device\n")
            #expect(child.output == "", "nothing left on the full disk")
            #expect(try defaults.persistentValues() == ["big": .data(Data(repeating: 0xA5, count: 600_000))])
        }
    }

    /// The errno behind SQLite's I/O errors names what ran out: the disk or the quota (``DefaultsError/diskFull(suite:key:)``),
    /// the file-size limit (``DefaultsError/fileTooLarge(suite:key:)``); any other stays SQLite's error.
    @Test func theErrnoBehindAnIOErrorNamesWhatRanOut() {
        // NB: SQLITE_IOERR_WRITE and SQLITE_IOERR_SHMSIZE, macros Swift cannot import.
        let write = SQLiteError.Code(rawValue: SQLITE_IOERR | 3 << 8)
        let shmSize = SQLiteError.Code(rawValue: SQLITE_IOERR | 19 << 8)
        let cases: [(SQLiteError, DefaultsError)] = [
            (SQLiteError(code: shmSize, message: "disk I/O error", systemErrno: ENOSPC), .diskFull(suite: "s", key: "k")),
            (SQLiteError(code: write, message: "disk I/O error", systemErrno: EDQUOT), .diskFull(suite: "s", key: "k")),
            (SQLiteError(code: write, message: "disk I/O error", systemErrno: EFBIG), .fileTooLarge(suite: "s", key: "k")),
            (SQLiteError(code: .full, message: "database or disk is full"), .diskFull(suite: "s", key: "k")),
            (
                SQLiteError(code: write, message: "disk I/O error", systemErrno: EIO),
                .storageFailure(SQLiteError(code: write, message: "disk I/O error", systemErrno: EIO), suite: "s", key: "k")
            ),
        ]
        for (error, expected) in cases {
            #expect(DefaultsError.storage(error, suite: "s", key: "k") as? DefaultsError == expected, "\(error)")
        }
    }

    private func setMaximumPageCount(of defaults: Defaults, _ limit: (Int) -> Int) throws {
        try defaults.persistentStoreForTesting.withConnectionForTesting { connection in
            let pages = try connection.integer("PRAGMA page_count")
            #expect(try connection.integer("PRAGMA max_page_count = \(limit(pages))") == limit(pages))
        }
    }
}
