import CSQLite
import Foundation

/// The layout of a domain's database: created in a new file, checked in one of ours.
///
/// ```sql
/// CREATE TABLE preferences (key TEXT PRIMARY KEY NOT NULL, type TEXT NOT NULL, value NOT NULL) WITHOUT ROWID;
/// CREATE TABLE migrations (name TEXT PRIMARY KEY NOT NULL, applied_at REAL NOT NULL) WITHOUT ROWID;
/// PRAGMA application_id = 0x4C445046; -- "LDPF"
/// PRAGMA user_version = 1;
/// ```
/// A domain that keeps history also holds the `history` table, made by its first entry
/// (``PreferencesTable/createHistory``); one that never did has none.
/// `type` is one of `string`, `integer`, `double`, `bool`, `date`, `data`, `array`, `dictionary`
/// (see ``StoredValue`` for the value column).
enum TableLayout {
    static let applicationID = 0x4C44_5046
    static let version = 1

    // NB: the type check is a chain of `=`, not `type IN (...)`: SQLite (3.40) evaluates an IN list of
    // more than two constants by building a temporary b-tree each time the statement runs, which made
    // every upsert many times as costly as a plain one. Files created before keep the IN form: correct,
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

    /// Checks that the database is ours (reading only) and creates the tables in a new, empty file.
    ///
    /// Reads the header before anything writes: garbage, a truncated file, a foreign layout or a newer
    /// version is refused with the file untouched.
    /// - Throws: ``DefaultsError/corruptStore(path:reason:)``, ``DefaultsError/foreignDatabase(path:)``,
    ///   ``DefaultsError/unsupportedSchemaVersion(path:found:supported:)``, or a ``SQLiteError``.
    /// - Parameters:
    ///   - verify: run `PRAGMA quick_check` on a file of ours before accepting it (see ``FileAdmission/checkHeader(_:path:)``).
    ///   - headerProvesOurs: the file's current header was read and is ours (see
    ///     ``FileAdmission/Candidate/headerProvesOurs``): SQLite is not asked again.
    static func prepare(
        _ connection: Connection, path: String, inMemory: Bool, verify: Bool = false, headerProvesOurs: Bool = false
    ) throws -> State {
        do {
            if try headerProvesOurs || isOurs(connection, path: path) {
                return try checked(connection, path: path, verify: verify)
            }
            if connection.isReadOnly { return .emptyReadOnly }
            let deadline = ContinuousClock.now + .milliseconds(Int(connection.busyTimeoutMilliseconds))
            if !inMemory { try switchToWAL(connection, until: deadline) }
            guard try beginCreating(connection, path: path, until: deadline) else {
                return try checked(connection, path: path, verify: verify)
            }
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

    /// Checks, reading only, that the database `connection` has open (a backup about to be restored, its
    /// file already through ``FileAdmission``) is a whole, healthy store of ours: our application id, a
    /// schema version this one reads, both tables (and the history table, or none), and `PRAGMA quick_check`.
    ///
    /// Stricter than opening a domain, which accepts an empty file (a new domain) and checks pages only
    /// when the header suggests some are missing: a restore replaces everything, so what it copies must be
    /// known good first.
    /// - Throws: ``DefaultsError/invalidBackup(path:reason:)``, or a storage error when it cannot be read.
    static func verifyBackup(_ connection: Connection, path: String) throws {
        let reason: String?
        do {
            let id = try connection.integer("PRAGMA application_id")
            let found = try connection.integer("PRAGMA user_version")
            let tables = try connection.integer(
                "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN ('preferences', 'migrations')")
            if id != applicationID {
                let objects = try connection.integer("SELECT count(*) FROM sqlite_schema")
                reason = id == 0 && objects == 0 ? "it is empty" : "it is a SQLite database, but not a LayeredDefaults store"
            } else if found > version {
                reason =
                    "it was written by a newer version of LayeredDefaults (schema version \(found); this one reads \(version))"
            } else if tables != 2 {
                reason = "its tables are missing"
            } else if let difference = try layoutDifference(connection) {
                reason = difference
            } else if try connection.text("PRAGMA quick_check") != "ok" {
                reason = "it is damaged (malformed)"
            } else {
                reason = nil
            }
        } catch let error as SQLiteError where error.code.primary == .notADatabase || error.code.primary == .corrupt {
            reason = error.code.primary == .corrupt ? "it is damaged (malformed)" : "it is not a database"
        } catch let error as SQLiteError where error.code.primary.rawValue == SQLITE_ERROR {
            // A schema SQLite cannot compile (a generated column calling a function it lacks) is not ours.
            reason = "its schema is not the one LayeredDefaults makes"
        }
        if let reason { throw DefaultsError.invalidBackup(path: path, reason: reason) }
    }

    /// A column of ours as `PRAGMA table_xinfo` lists it: stored (`hidden` 0), with no default.
    private struct Column {
        let name: String
        /// The declared type.
        let type: String
        /// Its place in the primary key (0: not part of it).
        let key: Int
    }

    /// Each of our tables, the pragma that lists its columns, its columns in order (all NOT NULL), and
    /// whether every file holds it (the history table is made by a domain's first entry, the clocks of a
    /// syncing domain by its first synced write: ``PreferencesTable/createSyncClocks``).
    private static let tables: [(name: String, pragma: StaticString, columns: [Column], isOptional: Bool)] = [
        (
            "preferences", "PRAGMA table_xinfo(preferences)",
            [
                Column(name: "key", type: "TEXT", key: 1), Column(name: "type", type: "TEXT", key: 0),
                Column(name: "value", type: "", key: 0),
            ],
            false
        ),
        (
            "migrations", "PRAGMA table_xinfo(migrations)",
            [Column(name: "name", type: "TEXT", key: 1), Column(name: "applied_at", type: "REAL", key: 0)], false
        ),
        (
            "history", "PRAGMA table_xinfo(history)",
            [
                Column(name: "key", type: "TEXT", key: 1), Column(name: "seq", type: "INTEGER", key: 2),
                Column(name: "changed_at", type: "REAL", key: 0), Column(name: "type", type: "TEXT", key: 0),
                Column(name: "value", type: "", key: 0), Column(name: "process", type: "TEXT", key: 0),
                Column(name: "executable", type: "TEXT", key: 0), Column(name: "uid", type: "INTEGER", key: 0),
                Column(name: "user", type: "TEXT", key: 0),
            ],
            true
        ),
        (
            "sync_clocks", "PRAGMA table_xinfo(sync_clocks)",
            [
                Column(name: "key", type: "TEXT", key: 1), Column(name: "wall", type: "INTEGER", key: 0),
                Column(name: "counter", type: "INTEGER", key: 0), Column(name: "device", type: "TEXT", key: 0),
                Column(name: "value", type: "TEXT", key: 0),
            ],
            true
        ),
    ]

    /// Why the layout of a backup's database is not exactly the one ``create`` makes, or nil when it is:
    /// its schema holds our two tables, perhaps the history table, and nothing else (no view, trigger,
    /// index or other table), and each table holds our columns and no other, every one stored.
    ///
    /// NB: a restore reads rows, never definitions: a column generated by an expression (`value AS
    /// ('computed-' || key)`) stores nothing, yet reads as whatever its expression makes, as large as it
    /// likes (`hex(zeroblob(32000000))`); a view or a trigger is code of the file's author. The file's
    /// `CREATE` text is not compared: files made before keep another spelling of the type check.
    private static func layoutDifference(_ connection: Connection) throws -> String? {
        let objects = try connection.statement("SELECT type, name, sql FROM sqlite_schema")
        defer { objects.reset() }
        while try objects.step() {
            let (type, name) = (objects.text(at: 0), objects.text(at: 1))
            // NB: a virtual table is listed as a table; only CREATE TABLE makes a table of stored rows.
            let isTable = type == "table" && objects.text(at: 2).hasPrefix("CREATE TABLE ")
            guard isTable, tables.contains(where: { $0.name == name }) else {
                let kind = ["view": "a view", "trigger": "a trigger", "index": "an index"][type] ?? "a table"
                return "it holds \(kind) that LayeredDefaults does not make"
            }
        }
        for table in tables {
            let statement = try connection.statement(table.pragma)
            defer { statement.reset() }
            let unlike = "its table '\(table.name)' does not have the columns LayeredDefaults makes"
            var found = 0
            // An optional table that is absent lists no column.
            if table.isOptional, try !statement.step() { continue }
            statement.reset()
            while try statement.step() {
                guard found < table.columns.count else { return unlike }
                let column = table.columns[found]
                guard statement.int(at: 6) == 0 else {
                    return "the column '\(column.name)' of its table '\(table.name)' is generated or hidden, not stored"
                }
                guard statement.text(at: 1) == column.name, statement.text(at: 2) == column.type, statement.int(at: 3) == 1,
                    statement.columnType(at: 4) == SQLITE_NULL, statement.int(at: 5) == column.key
                else { return unlike }
                found += 1
            }
            guard found == table.columns.count else { return unlike }
        }
        return nil
    }

    /// A file of ours, checked for missing pages when its header suggests some are missing.
    ///
    /// A store whose main file lost pages beside a log can still open, and fail only on the first
    /// read of a missing page, after checkpoints had written into it. `quick_check` finds that, but costs
    /// milliseconds for a large store, so it runs only when ``FileAdmission/checkHeader(_:path:)`` saw the file shorter
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
                if try connection.withBusyTimeout(milliseconds: 25, { try connection.text("PRAGMA journal_mode = WAL") }) == "wal"
                {
                    return
                }
            } catch let error as SQLiteError where error.code.primary == .busy {
                guard ContinuousClock.now < deadline else { throw error }
                continue
            }
            guard ContinuousClock.now < deadline else {
                throw SQLiteError(code: .busy, message: "another connection kept the new database from switching to WAL mode")
            }
        }
    }

    /// Begins the write transaction that creates the tables; returns false, with no transaction, when
    /// another process created it meanwhile.
    ///
    /// NB: the creator of a new file holds the write lock for a moment, but writers that follow it at once
    /// can keep a waiter out past the busy timeout (SQLite's busy handler is not fair). The tables it waits
    /// to create are most likely there already, so wait in short steps and look between them, within the
    /// connection's busy timeout.
    private static func beginCreating(
        _ connection: Connection, path: String, until deadline: ContinuousClock.Instant
    ) throws -> Bool {
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
        // NB: asked one by one, each in its own read transaction, and in the order that makes that safe:
        // another process may create a new file's schema and stamp it with our id (one transaction) between
        // two questions, but never the other way round. So a file without our id that holds objects is
        // foreign only if it still has no id after they were counted. (One statement over the table-valued
        // pragmas, `SELECT ... FROM pragma_application_id`, did it in one read, but compiling those cost
        // a large share of opening a store.)
        var applicationID = try connection.integer("PRAGMA application_id")
        var objects = 0
        if applicationID == 0 {
            objects = try connection.integer("SELECT count(*) FROM sqlite_schema")
            if objects > 0 { applicationID = try connection.integer("PRAGMA application_id") }
        }
        if applicationID == Self.applicationID {
            let found = try connection.integer("PRAGMA user_version")
            guard found <= version else {
                throw DefaultsError.unsupportedSchemaVersion(path: path, found: found, supported: version)
            }
            return true
        }
        guard applicationID == 0, objects == 0 else { throw DefaultsError.foreignDatabase(path: path) }
        return false
    }
}
