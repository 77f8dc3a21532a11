import Foundation
import Testing
@testable import LayeredDefaults

/// A full disk: the write fails with ``DefaultsError/diskFull(suite:key:)``, nothing else changes, and
/// the store works again once there is room.
@Suite(.timeLimit(.minutes(1)))
struct DiskFullTests {
    /// `PRAGMA max_page_count` caps the database at its current size, so SQLite fails the next write
    /// that needs a new page with `SQLITE_FULL`, exactly as on a full disk. Every write API throws (or
    /// reports) `diskFull`; the in-memory view of both instances, the file, and every earlier value are
    /// unchanged; raising the cap again lets the same write through.
    @Test func aFullDatabaseFailsTheWriteAndKeepsEverything() throws {
        try withTemporaryRoot { root in
            let reported = Reported()
            let defaults = try Defaults(suiteName: "full", configuration: .init(location: .directory(root), arguments: [], errorHandler: reported.record))
            let twin = try Defaults(suiteName: "full", configuration: .init(location: .directory(root), arguments: []))
            for index in 0..<50 { try defaults.write(.string("value \(index)"), forKey: "k\(index)") }
            let before = try defaults.persistentValues()
            let file = databaseFile("full", in: root)

            try setMaximumPageCount(of: defaults) { $0 }
            let big = PreferenceValue.data(Data(repeating: 0xAB, count: 256 * 1024))
            #expect(throws: DefaultsError.diskFull(suite: "full", key: "big")) { try defaults.write(big, forKey: "big") }
            #expect(throws: DefaultsError.diskFull(suite: "full", key: "k1")) { try defaults.write(big, forKey: "k1") }
            #expect(throws: DefaultsError.diskFull(suite: "full", key: "k2")) { try defaults.update(forKey: "k2") { _ in big } }
            #expect(throws: DefaultsError.diskFull(suite: "full", key: nil)) {
                try defaults.transaction { domain in
                    try domain.set(.string("small"), forKey: "small")
                    try domain.set(nil, forKey: "k3")
                    try domain.set(big, forKey: "big")
                }
            }
            defaults.set(Data(repeating: 1, count: 256 * 1024), forKey: "k4")
            #expect(reported.errors == [.diskFull(suite: "full", key: "k4")])

            for instance in [defaults, twin] {
                for (key, value) in before { #expect(try instance.persistentValue(forKey: key) == value, "\(key) in memory") }
                #expect(try instance.persistentValue(forKey: "big") == nil)
                #expect(try instance.persistentValue(forKey: "small") == nil)
            }
            #expect(try freshValues(of: file) == before)
            #expect(try integrityCheck(of: file) == "ok")

            try setMaximumPageCount(of: defaults) { _ in 1_073_741_823 }
            try defaults.write(big, forKey: "big")
            try defaults.update(forKey: "k2") { _ in big }
            var after = before
            after["big"] = big
            after["k2"] = big
            #expect(try twin.persistentValue(forKey: "big") == big)
            #expect(try freshValues(of: file) == after)
        }
    }

    /// A real write failure from the operating system, in the middle of appending to the log: a child
    /// process whose files may not grow past 64 KiB (`RLIMIT_FSIZE`) fails a large write with a typed
    /// error naming suite and key, leaving every earlier value and a healthy file; the next process,
    /// with room, writes it.
    ///
    /// NB: SQLite says `SQLITE_FULL` (``DefaultsError/diskFull(suite:key:)``) only for `ENOSPC`; this
    /// `EFBIG`, like a quota's `EDQUOT`, is `SQLITE_IOERR_WRITE` (778), and SQLite keeps no errno for it
    /// that the store could read to say "full" instead.
    @Test func aWriteTheFileSystemRefusesFailsTypedAndLosesNothing() throws {
        try withTemporaryRoot { root in
            #expect(try runFixture(root, "quota", ["write-many", "k", "50"]).status == 0)
            let file = databaseFile("quota", in: root)
            let before = try freshValues(of: file)
            let refused = try runFixture(root, "quota", ["write-data", "big", "200000"], options: ["--file-size-limit", "65536"])
            #expect(refused.status == 2)
            #expect(refused.error.hasPrefix("defaults-fixture: Storage failure key 'big' in suite 'quota': SQLite error 778 "), "\(refused.error)")
            #expect(try freshValues(of: file) == before)
            #expect(try integrityCheck(of: file) == "ok")
            #expect(try runFixture(root, "quota", ["write-data", "big", "200000"]).status == 0)
            #expect(try freshValues(of: file)["big"] == .data(Data(repeating: 0xA5, count: 200000)))
        }
    }

    private func setMaximumPageCount(of defaults: Defaults, _ limit: (Int) -> Int) throws {
        try defaults.persistent.withConnectionForTesting { connection in
            let pages = try connection.integer("PRAGMA page_count")
            #expect(try connection.integer("PRAGMA max_page_count = \(limit(pages))") == limit(pages))
        }
    }
}
