import Foundation
import PackageTestSupport
import Testing
import ToolSupport

@testable import LayeredDefaults

/// Files that must never be opened as a store, modified, or deleted.
enum BadFile: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Random bytes.
    case garbage
    /// SQLite's 16-byte magic header followed by random bytes.
    case garbageAfterTheSQLiteHeader
    /// The first half of a real store.
    case truncated
    /// A directory where the file should be.
    case directory
    /// A SQLite database of some other program.
    case foreignSchema
    /// A store whose `user_version` is newer than ours.
    case newerVersion
    /// Random bytes, beside a `-wal` file of random bytes.
    case garbageWithLog
    /// The first half of a real store, beside its `-wal` holding later commits (a crash on a bad disk).
    case truncatedWithLog
    /// A SQLite database of some other program, in WAL mode, its latest commits still in its `-wal`.
    case foreignWithLog
    /// A newer store of ours, its latest commits still in its `-wal`.
    case newerVersionWithLog
    /// An empty file beside a real `-wal` (SQLite would delete that log on open).
    case emptyWithLog
    /// A symbolic link to a file outside the root.
    case symlinkOutside
    /// A healthy store whose `-wal` file is a symbolic link to a file outside the root.
    case walSymlinkOutside
    /// A healthy store whose `-shm` file is a symbolic link to a file outside the root.
    case shmSymlinkOutside
    /// A healthy store with a second name (a hard link) outside the root, as a `cp -al` snapshot leaves it:
    /// SQLite would keep one write-ahead log per name.
    case hardLinkOutside
    /// A healthy store whose `-wal` file is a hard link to a file outside the root.
    case walHardLinkOutside
    /// A healthy store whose `-shm` file is a hard link to a file outside the root.
    case shmHardLinkOutside
    /// A healthy store beside a FIFO named like its rollback journal (`-journal`): opening it blocks.
    case journalFIFO
    /// A healthy store beside a FIFO named like its write-ahead log (`-wal`).
    case walFIFO

    var testDescription: String { rawValue }

    /// The kinds that ``Defaults/Domain/repair()`` moves aside (the rest it refuses).
    static let repairable: [BadFile] = [
        .garbage, .garbageAfterTheSQLiteHeader, .truncated, .directory, .foreignSchema, .newerVersion,
        .garbageWithLog, .truncatedWithLog, .foreignWithLog, .newerVersionWithLog, .emptyWithLog,
    ]

    /// Makes this kind of file for `suite` in `root`; returns the file outside the root that a link
    /// points to, if any.
    @discardableResult
    func make(suite: String, in root: URL) throws -> URL? {
        let file = databaseFile(suite, in: root)
        let outside = root.deletingLastPathComponent().appendingPathComponent("outside-\(UUID().uuidString).txt")
        var generator = SplitMix64(seed: 42)
        let random = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        switch self {
        case .garbage:
            try random.write(to: file)
        case .garbageAfterTheSQLiteHeader:
            try (Data("SQLite format 3\0".utf8) + random).write(to: file)
        case .truncated:
            let scratch = root.appendingPathComponent("scratch-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
            try withConnection(databaseFile("full", in: scratch), create: true) { connection in
                try connection.execute("PRAGMA journal_mode = DELETE; \(TableLayout.create)")
                try connection.execute(
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO preferences SELECT 'key-' || i, 'string', printf('%.100c', 'v') FROM n"
                )
            }
            let full = try Data(contentsOf: databaseFile("full", in: scratch))
            try full.prefix(full.count / 2).write(to: file)
            try FileManager.default.removeItem(at: scratch)
        case .directory:
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
            try Data("inside".utf8).write(to: file.appendingPathComponent("inside.txt"))
        case .foreignSchema:
            try withConnection(file, create: true) {
                try $0.execute("CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('someone');")
            }
        case .newerVersion:
            try withConnection(file, create: true) { connection in
                try connection.execute(
                    "\(TableLayout.create) PRAGMA user_version = 99; INSERT INTO preferences VALUES ('k', 'string', 'v');")
            }
        case .garbageWithLog:
            try random.write(to: file)
            try random.prefix(4096).write(to: URL(fileURLWithPath: file.path + "-wal"))
        case .truncatedWithLog:
            try copyWithPendingLog(
                to: file, truncatingTo: 0.5,
                setUp: "\(TableLayout.create) \(Self.rows(1...2000))", pending: Self.rows(2001...2100))
        case .foreignWithLog:
            try copyWithPendingLog(
                to: file, setUp: "CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('someone');",
                pending: "INSERT INTO people VALUES ('someone else');")
        case .newerVersionWithLog:
            try copyWithPendingLog(
                to: file, setUp: "\(TableLayout.create) PRAGMA user_version = 99; \(Self.rows(1...10))",
                pending: Self.rows(11...20))
        case .emptyWithLog:
            try copyWithPendingLog(to: file, truncatingTo: 0, setUp: TableLayout.create, pending: Self.rows(1...10))
        case .symlinkOutside:
            try Data("outside, not ours".utf8).write(to: outside)
            try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: outside.path)
            return outside
        case .walSymlinkOutside, .shmSymlinkOutside:
            try makeHealthy(file)
            try Data("outside, not ours".utf8).write(to: outside)
            let link = file.path + (self == .walSymlinkOutside ? "-wal" : "-shm")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside.path)
            return outside
        case .hardLinkOutside:
            try makeHealthy(file)
            try FileManager.default.linkItem(at: file, to: outside)
            return outside
        case .walHardLinkOutside, .shmHardLinkOutside:
            try makeHealthy(file)
            try Data("outside, not ours".utf8).write(to: outside)
            let link = file.path + (self == .walHardLinkOutside ? "-wal" : "-shm")
            try FileManager.default.linkItem(atPath: outside.path, toPath: link)
            return outside
        case .journalFIFO, .walFIFO:
            try makeHealthy(file)
            let fifo = file.path + (self == .journalFIFO ? "-journal" : "-wal")
            guard mkfifo(fifo, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        return nil
    }

    /// Whether `error` is the typed error this kind of file must give, naming `file`.
    func isExpected(_ error: (any Error)?, file: URL) -> Bool {
        switch (self, error as? DefaultsError) {
        case (.garbage, .corruptStore(let path, _)?), (.garbageAfterTheSQLiteHeader, .corruptStore(let path, _)?),
            (.truncated, .corruptStore(let path, _)?), (.directory, .corruptStore(let path, _)?),
            (.foreignSchema, .foreignDatabase(let path)?), (.newerVersion, .unsupportedSchemaVersion(let path, 99, _)?),
            (.garbageWithLog, .corruptStore(let path, _)?), (.truncatedWithLog, .corruptStore(let path, _)?),
            (.foreignWithLog, .foreignDatabase(let path)?), (.newerVersionWithLog, .unsupportedSchemaVersion(let path, 99, _)?),
            (.emptyWithLog, .corruptStore(let path, _)?),
            (.symlinkOutside, .unsafePath(let path)?):
            return path == file.path
        case (.walSymlinkOutside, .unsafePath(let path)?):
            return path == file.path + "-wal"
        case (.shmSymlinkOutside, .unsafePath(let path)?):
            return path == file.path + "-shm"
        case (.hardLinkOutside, .hardLinked(let path)?):
            return path == file.path
        case (.walHardLinkOutside, .hardLinked(let path)?):
            return path == file.path + "-wal"
        case (.shmHardLinkOutside, .hardLinked(let path)?):
            return path == file.path + "-shm"
        case (.journalFIFO, .unsafePath(let path)?):
            return path == file.path + "-journal"
        case (.walFIFO, .unsafePath(let path)?):
            return path == file.path + "-wal"
        default:
            return false
        }
    }

    /// SQL inserting the rows `key-<n>` = 100 "v" for every n in `range`.
    private static func rows(_ range: ClosedRange<Int>) -> String {
        "WITH RECURSIVE n(i) AS (SELECT \(range.lowerBound) UNION ALL SELECT i + 1 FROM n WHERE i < \(range.upperBound)) "
            + "INSERT INTO preferences SELECT 'key-' || i, 'string', printf('%.100c', 'v') FROM n;"
    }

    /// Builds a WAL-mode database with `setUp` checkpointed into the main file and `pending` only in its
    /// log, and copies the set (main file, cut to `fraction` of its size; `-wal`; `-shm`) to `file` while
    /// the database is still open: the files as a crash would leave them.
    private func copyWithPendingLog(to file: URL, truncatingTo fraction: Double = 1, setUp: String, pending: String) throws {
        let scratch = file.deletingLastPathComponent().appendingPathComponent("scratch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let source = scratch.appendingPathComponent("source.db")
        try withConnection(source, create: true) { connection in
            try connection.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; \(setUp)")
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE); \(pending)")
            let main = try Data(contentsOf: source)
            try main.prefix(Int(Double(main.count) * fraction)).write(to: file)
            for suffix in ["-wal", "-shm"] {
                try FileManager.default.copyItem(atPath: source.path + suffix, toPath: file.path + suffix)
            }
        }
    }

    /// Makes a healthy store of ours at `file`, one value stored, its connection closed (so no `-wal` or
    /// `-shm` is left).
    private func makeHealthy(_ file: URL) throws {
        try withConnection(file, create: true) { connection in
            try connection.execute(
                "PRAGMA journal_mode = WAL; \(TableLayout.create) INSERT INTO preferences VALUES ('k', 'string', 'v');")
        }
    }

    /// Runs `body` with a connection of its own to `file` (created empty first when `create`), closed afterwards.
    private func withConnection(_ file: URL, create: Bool, _ body: (Connection) throws -> Void) throws {
        if create { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let connection = try Connection(path: file.path, busyTimeoutMilliseconds: 1000)
        defer { connection.close() }
        try body(connection)
    }
}
