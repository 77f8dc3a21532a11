import CSQLite
import Foundation

/// Raw SQLite through its C API: the floor of our storage layer.
///
/// One table `kv(key TEXT PRIMARY KEY, value BLOB)` in WAL mode with `synchronous=NORMAL` (the settings
/// LayeredDefaults uses) and the same 5 s busy timeout; prepared statements, reused. A write is one
/// autocommit upsert (its own transaction); a batch is `BEGIN IMMEDIATE`, the upserts, `COMMIT`.
/// Strings are bound as text and integers as integers (a BLOB column stores either unchanged).
final class RawSQLitePeer: Peer {
    let kind = PeerKind.sqlite
    private var handle: OpaquePointer?
    private var upsert: OpaquePointer?
    private var select: OpaquePointer?
    private var delete: OpaquePointer?
    private var begin: OpaquePointer?
    private var commit: OpaquePointer?
    private var dataVersionStatement: OpaquePointer?

    /// Opens (creating when missing) the database at `path`.
    /// - Throws: ``PeerError/failed(_:_:)`` with SQLite's message.
    init(path: String) throws {
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK
        else {
            throw failure("open")
        }
        sqlite3_busy_timeout(handle, 5000)
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
        try execute("CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value BLOB)")
        upsert = try prepare("INSERT INTO kv (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        select = try prepare("SELECT value FROM kv WHERE key = ?1")
        delete = try prepare("DELETE FROM kv WHERE key = ?1")
        begin = try prepare("BEGIN IMMEDIATE")
        commit = try prepare("COMMIT")
        dataVersionStatement = try prepare("PRAGMA data_version")
    }

    deinit {
        for statement in [upsert, select, delete, begin, commit, dataVersionStatement] { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Fills the table with the pairs of `workload`, in one transaction.
    func populate(_ workload: Workload) throws {
        try step(begin)
        do {
            for (key, value) in workload.strings { try upsert(key) { sqlite3_bind_text($0, 2, value, -1, csqlite_transient) } }
            for (key, value) in workload.integers { try upsert(key) { sqlite3_bind_int64($0, 2, Int64(value)) } }
            try step(commit)
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    func string(forKey key: String) -> String? {
        key.withCString { key in
            sqlite3_bind_text(select, 1, key, -1, nil)
            defer { sqlite3_reset(select) }
            guard sqlite3_step(select) == SQLITE_ROW, let text = sqlite3_column_text(select, 0) else { return nil }
            return String(cString: text)
        }
    }

    func integer(forKey key: String) -> Int {
        key.withCString { key in
            sqlite3_bind_text(select, 1, key, -1, nil)
            defer { sqlite3_reset(select) }
            guard sqlite3_step(select) == SQLITE_ROW else { return 0 }
            return Int(sqlite3_column_int64(select, 0))
        }
    }

    func write(_ value: String, forKey key: String) throws {
        try upsert(key) { sqlite3_bind_text($0, 2, value, -1, csqlite_transient) }
    }

    func remove(forKey key: String) throws {
        try key.withCString { key in
            sqlite3_bind_text(delete, 1, key, -1, nil)
            try step(delete)
        }
    }

    func writeBatch(_ pairs: [(key: String, value: String)]) throws {
        try step(begin)
        do {
            for (key, value) in pairs { try upsert(key) { sqlite3_bind_text($0, 2, value, -1, csqlite_transient) } }
            try step(commit)
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// `PRAGMA data_version`: changes when another connection has committed.
    func dataVersion() -> Int {
        defer { sqlite3_reset(dataVersionStatement) }
        return sqlite3_step(dataVersionStatement) == SQLITE_ROW ? Int(sqlite3_column_int64(dataVersionStatement, 0)) : 0
    }

    // MARK: The C API

    private func upsert(_ key: String, bindValue: (OpaquePointer?) -> Int32) throws {
        try key.withCString { key in
            sqlite3_bind_text(upsert, 1, key, -1, nil)
            _ = bindValue(upsert)
            try step(upsert)
        }
    }

    /// Runs a statement that returns no row, and resets it.
    private func step(_ statement: OpaquePointer?) throws {
        defer { sqlite3_reset(statement) }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw failure(String(cString: sqlite3_sql(statement))) }
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK else {
            throw failure(sql)
        }
        return statement
    }

    private func failure(_ what: String) -> PeerError {
        .failed(kind, "\(what): \(handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory")")
    }
}
