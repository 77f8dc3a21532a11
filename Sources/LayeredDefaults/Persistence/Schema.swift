import CSQLite
import Foundation

/// The layout of a domain's database, and the check that a file really is one of ours.
///
/// ```sql
/// CREATE TABLE preferences (key TEXT PRIMARY KEY NOT NULL, type TEXT NOT NULL, value NOT NULL) WITHOUT ROWID;
/// CREATE TABLE migrations (name TEXT PRIMARY KEY NOT NULL, applied_at REAL NOT NULL) WITHOUT ROWID;
/// PRAGMA application_id = 0x4C445046; -- "LDPF"
/// PRAGMA user_version = 1;
/// ```
/// `type` is one of `string`, `integer`, `double`, `bool`, `date`, `data`, `array`, `dictionary`
/// (see ``StoredValue`` for the value column).
enum Schema {
    static let applicationID = 0x4C44_5046
    static let version = 1

    // NB: the type check is a chain of `=`, not `type IN (...)`: SQLite (3.40) evaluates an IN list of
    // more than two constants by building a temporary b-tree each time the statement runs, which made
    // every upsert 9x the instructions of a plain one. Files created before keep the IN form: correct,
    // only slower to write.
    static let create = """
        CREATE TABLE IF NOT EXISTS preferences (
            key TEXT PRIMARY KEY NOT NULL,
            type TEXT NOT NULL CHECK (type = 'string' OR type = 'integer' OR type = 'double' OR type = 'bool'
                OR type = 'date' OR type = 'data' OR type = 'array' OR type = 'dictionary'),
            value NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS migrations (
            name TEXT PRIMARY KEY NOT NULL,
            applied_at REAL NOT NULL
        ) WITHOUT ROWID;
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(version);
        """

    /// What opening found.
    enum State {
        /// One of ours, ready to use.
        case ready
        /// An empty file that is read-only: nothing stored, nothing can be.
        case emptyReadOnly
    }

    /// Checks the 100-byte header of the database `connection` has just opened (at `path`) before
    /// SQLite reads it, so that SQLite never uses a file that is plainly not a store of ours.
    ///
    /// NB: SQLite has side effects on the first read that are harmless for its own files but not for a
    /// file we are about to refuse: next to a file it cannot read it creates a `-shm`, for a zero-length
    /// file it deletes an existing `-wal` (which may hold the only copy of recent data), and closing a
    /// foreign database in WAL mode checkpoints its log into it. Opening has none (it reads the header,
    /// locks and creates nothing), so the header is read here through the connection's own file, before
    /// any statement runs; a descriptor of our own would drop, once closed, every POSIX lock this process
    /// holds on the file (another store's, say). Garbage, a foreign database (with an application id of
    /// its own, or with tables and no pending log), a newer version of ours, and an empty file beside a
    /// non-empty log are refused here; what passes goes to ``prepare(_:path:inMemory:verify:)`` with
    /// checkpoint-on-close off.
    /// - Returns: true when the file may have lost pages (see ``HeaderLook/mayBeTruncated``): then
    ///   ``prepare(_:path:inMemory:verify:)`` must verify it.
    /// - Throws: ``DefaultsError/corruptStore(path:reason:)``, ``DefaultsError/foreignDatabase(path:)``,
    ///   ``DefaultsError/unsupportedSchemaVersion(path:found:supported:)``.
    static func checkHeader(_ connection: Connection, path: String) throws -> Bool {
        // NB: other processes may be writing the file meanwhile (creating it; a checkpoint grows it before
        // it rewrites page 1), and header, size and log cannot be read at one instant. So look at header
        // and size, then the log, then header and size again, and judge only a picture that held still.
        // One that keeps changing is being written busily by SQLite: SQLite judges it (checkpoint-on-close
        // stays off until the file is ours).
        for _ in 0..<20 {
            guard let first = HeaderLook(connection) else { return false }  // SQLite reports why
            var status = stat()
            let logSize = lstat(path + "-wal", &status) == 0 ? Int(status.st_size) : 0
            guard first == HeaderLook(connection) else { continue }
            try judge(first, logSize: logSize, path: path)
            return first.mayBeTruncated
        }
        return true
    }

    /// The first 100 bytes of a file and its size, read through a connection's own open file.
    private struct HeaderLook: Equatable {
        var header: [UInt8]
        var size: Int

        /// Reads the header and size of the file `connection` has open; nil when they cannot be read.
        init?(_ connection: Connection) {
            guard let (header, size) = connection.fileStart(count: 100) else { return nil }
            (self.header, self.size) = (header, size)
        }

        /// True when the header's own page count is valid and says the file is longer than it is: the
        /// file lost pages (or a checkpoint is extending it this very moment). With no write-ahead log
        /// SQLite notices this by itself; beside a log that holds the page count it would not, until a
        /// read reaches a missing page. Cheap to test, rare in a healthy store.
        var mayBeTruncated: Bool {
            guard header.count == 100 else { return false }
            func big32(_ offset: Int) -> Int { header[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
            let rawPageSize = Int(header[16]) << 8 | Int(header[17])
            let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
            let pageCountIsValid = big32(24) == big32(92) && big32(28) > 0
            return pageCountIsValid && big32(28) * pageSize > size
        }
    }

    private static func judge(_ look: HeaderLook, logSize: Int, path: String) throws {
        let header = look.header
        if header.isEmpty {
            guard logSize == 0 else { throw DefaultsError.corruptStore(path: path, reason: "empty, beside a non-empty write-ahead log") }
            return
        }
        func big32(_ offset: Int) -> UInt32 { header[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        let rawPageSize = Int(header.count >= 18 ? UInt16(header[16]) << 8 | UInt16(header[17]) : 0)
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)),
              (512...65536).contains(pageSize), pageSize & (pageSize - 1) == 0,
              (1...2).contains(header[18]), (1...2).contains(header[19]), header[21...23] == [64, 32, 32]
        else { throw DefaultsError.corruptStore(path: path, reason: "not a database") }
        switch Int(big32(68)) {
        case applicationID:
            let found = Int(Int32(bitPattern: big32(60)))
            guard found <= version else { throw DefaultsError.unsupportedSchemaVersion(path: path, found: found, supported: version) }
        case 0:
            // NB: our own file has its application id on page 1 from its first checkpoint on; before that
            // it is one page (the WAL switch writes page 1) and the rest is in its log.
            if look.size / pageSize >= 2, logSize == 0 { throw DefaultsError.foreignDatabase(path: path) }
        default:
            throw DefaultsError.foreignDatabase(path: path)
        }
    }

    /// Checks that the database is ours (reading only) and creates the schema in a new, empty file.
    ///
    /// Reads the header before anything writes: garbage, a truncated file, a foreign schema or a newer
    /// version is refused with the file untouched.
    /// - Throws: ``DefaultsError/corruptStore(path:reason:)``, ``DefaultsError/foreignDatabase(path:)``,
    ///   ``DefaultsError/unsupportedSchemaVersion(path:found:supported:)``, or a ``SQLiteError``.
    /// - Parameter verify: run `PRAGMA quick_check` on a file of ours before accepting it (see ``checkHeader(_:path:)``).
    static func prepare(_ connection: Connection, path: String, inMemory: Bool, verify: Bool = false) throws -> State {
        do {
            if try isOurs(connection, path: path) { return try checked(connection, path: path, verify: verify) }
            if connection.isReadOnly { return .emptyReadOnly }
            let deadline = ContinuousClock.now + .milliseconds(Int(connection.busyTimeoutMilliseconds))
            if !inMemory { try switchToWAL(connection, until: deadline) }
            guard try beginCreating(connection, path: path, until: deadline) else { return try checked(connection, path: path, verify: verify) }
            do {
                // NB: check again under the write lock: another process may have created it meanwhile.
                if try !isOurs(connection, path: path) { try connection.execute(create) }
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
            return .ready
        } catch let error as SQLiteError where error.code.primary == .notADatabase || error.code.primary == .corrupt {
            throw DefaultsError.corruptStore(path: path, reason: error.code.primary == .corrupt ? "malformed" : "not a database")
        }
    }

    /// A file of ours, checked for missing pages when its header suggests some are missing.
    ///
    /// NB: a store whose main file lost pages beside a log can still open, and fail only on the first
    /// read of a missing page, after checkpoints had written into it. `quick_check` finds that, but costs
    /// milliseconds for a large store, so it runs only when ``checkHeader(_:path:)`` saw the file shorter
    /// than its header says; a corrupt page found later is reported as
    /// ``DefaultsError/corruptStore(path:reason:)`` by the store.
    private static func checked(_ connection: Connection, path: String, verify: Bool) throws -> State {
        guard try !verify || connection.text("PRAGMA quick_check") == "ok" else {
            throw DefaultsError.corruptStore(path: path, reason: "malformed")
        }
        return .ready
    }

    /// Puts a new, empty file in WAL mode before anything else is written to it.
    ///
    /// NB: the switch needs an exclusive lock for a moment, while every other process opening the same
    /// new file takes read locks on it, so it can fail with `SQLITE_BUSY` (which used to fail the whole
    /// open) and, as SQLite documents, a mode it cannot change may also be answered with the old mode and
    /// no error, which must not lead to a schema created in rollback-journal mode. So insist, in short
    /// steps, within the connection's busy timeout.
    private static func switchToWAL(_ connection: Connection, until deadline: ContinuousClock.Instant) throws {
        while true {
            do {
                if try connection.withBusyTimeout(milliseconds: 25, { try connection.text("PRAGMA journal_mode = WAL") }) == "wal" { return }
            } catch let error as SQLiteError where error.code.primary == .busy {
                guard ContinuousClock.now < deadline else { throw error }
                continue
            }
            guard ContinuousClock.now < deadline else {
                throw SQLiteError(code: .busy, message: "another connection kept the new database from switching to WAL mode")
            }
        }
    }

    /// Begins the write transaction that creates the schema; returns false, with no transaction, when
    /// another process created it meanwhile.
    ///
    /// NB: the creator of a new file holds the write lock for a moment, but writers that follow it at once
    /// can keep a waiter out past the busy timeout (SQLite's busy handler is not fair). The schema it waits
    /// to create is most likely there already, so wait in short steps and look between them, within the
    /// connection's busy timeout.
    private static func beginCreating(_ connection: Connection, path: String, until deadline: ContinuousClock.Instant) throws -> Bool {
        while true {
            do {
                try connection.withBusyTimeout(milliseconds: 25) { try connection.execute("BEGIN IMMEDIATE") }
                return true
            } catch let error as SQLiteError where error.code.primary == .busy {
                if try isOurs(connection, path: path) { return false }
                guard ContinuousClock.now < deadline else { throw error }
            }
        }
    }

    /// True when the file carries our application id; false when it is a new, empty database.
    private static func isOurs(_ connection: Connection, path: String) throws -> Bool {
        // NB: one statement, hence one read transaction: asked one by one, the id could be read before
        // another process commits a new file's schema and the table count after, which looks foreign.
        let statement = try connection.statement(
            "SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_schema)")
        defer { statement.reset() }
        guard try statement.step() else { return false }
        let (applicationID, found, objects) = (statement.int(at: 0), statement.int(at: 1), statement.int(at: 2))
        if applicationID == Self.applicationID {
            guard found <= version else {
                throw DefaultsError.unsupportedSchemaVersion(path: path, found: found, supported: version)
            }
            return true
        }
        guard applicationID == 0, objects == 0 else { throw DefaultsError.foreignDatabase(path: path) }
        return false
    }
}
