import CSQLite
import Foundation
import LayeredDefaults

/// Raw SQLite through its C API: the floor of our storage layer, doing what a minimal app would.
///
/// The file is one the library made and filled (our table layout: the same `WITHOUT ROWID` table with its
/// type column, so an insert or a delete touches one b-tree, as ours does; WAL mode). Opening it is what an app does: `sqlite3_open_v2` and the 5 s busy
/// timeout ours sets, nothing else; each statement is prepared on its first use and reused, and
/// `synchronous = NORMAL` (ours' setting, in WAL mode durable at each commit) is set before the first
/// write. Where the semantics are ours, the SQL is ours: the same `SELECT`, upsert and `DELETE`. A
/// write is one autocommit statement (its own transaction: all a single write needs); a batch is
/// `BEGIN IMMEDIATE`, the upserts, `COMMIT`. Strings are bound as text with type `string`, integers as
/// integers with type `integer`, as ours binds them.
final class RawSQLitePeer: Peer {
    let kind = PeerKind.sqlite
    private var handle: OpaquePointer?
    private var upsertStatement: OpaquePointer?
    private var select: OpaquePointer?
    private var delete: OpaquePointer?
    private var begin: OpaquePointer?
    private var commit: OpaquePointer?
    private var dataVersionStatement: OpaquePointer?
    private var writable = false

    /// Ours' upsert (`PreferencesTable.set`).
    static let upsertSQL =
        "INSERT INTO preferences (key, type, value) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET type = excluded.type, value = excluded.value"

    /// Opens the database at `path`, which the library made.
    /// - Throws: ``PeerError/failed(_:_:)`` with SQLite's message.
    init(path: String) throws {
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            throw failure("open")
        }
        sqlite3_busy_timeout(handle, 5000)
    }

    deinit {
        for statement in [upsertStatement, select, delete, begin, commit, dataVersionStatement] { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    func string(forKey key: String) -> String? {
        guard let select = selectStatement() else { return nil }
        return key.withCString { key in
            sqlite3_bind_text(select, 1, key, -1, nil)
            defer { sqlite3_reset(select) }
            guard sqlite3_step(select) == SQLITE_ROW, sqlite3_column_type(select, 1) == SQLITE_TEXT,
                let text = sqlite3_column_text(select, 1)
            else { return nil }
            return String(cString: text)
        }
    }

    func integer(forKey key: String) -> Int {
        guard let select = selectStatement() else { return 0 }
        return key.withCString { key in
            sqlite3_bind_text(select, 1, key, -1, nil)
            defer { sqlite3_reset(select) }
            guard sqlite3_step(select) == SQLITE_ROW, sqlite3_column_type(select, 1) == SQLITE_INTEGER else { return 0 }
            return Int(sqlite3_column_int64(select, 1))
        }
    }

    func write(_ value: String, forKey key: String) throws {
        try prepareToWrite()
        try upsert(key, string: value)
    }

    func remove(forKey key: String) throws {
        try prepareToWrite()
        if delete == nil { delete = try prepare("DELETE FROM preferences WHERE key = ?") }
        try key.withCString { key in
            sqlite3_bind_text(delete, 1, key, -1, nil)
            try step(delete)
        }
    }

    func writeBatch(_ pairs: [(key: String, value: String)]) throws {
        try prepareToWrite()
        try transaction {
            for (key, value) in pairs { try upsert(key, string: value) }
        }
    }

    /// `PRAGMA data_version`: changes when another connection has committed.
    func dataVersion() -> Int {
        if dataVersionStatement == nil { dataVersionStatement = try? prepare("PRAGMA data_version") }
        defer { sqlite3_reset(dataVersionStatement) }
        return sqlite3_step(dataVersionStatement) == SQLITE_ROW ? Int(sqlite3_column_int64(dataVersionStatement, 0)) : 0
    }

    /// The number of rows in the preferences table.
    /// - Throws: ``PeerError/failed(_:_:)`` with SQLite's message.
    func rowCount() throws -> Int {
        let statement = try prepare("SELECT count(*) FROM preferences")
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw failure("SELECT count(*)") }
        return Int(sqlite3_column_int64(statement, 0))
    }

    /// Copies the whole log of the database at `path` into it and empties the log (`TRUNCATE`), through
    /// a connection of its own, waiting up to 5 s for the store's own checkpoint or writer.
    /// - Throws: ``PeerError/failed(_:_:)`` when SQLite cannot, or left frames in the log.
    static func checkpointTruncating(path: String) throws {
        let peer = try RawSQLitePeer(path: path)
        // NB: a connection learns that the file is in WAL mode by reading it; before, a checkpoint does
        // nothing and says -1 frames.
        _ = try peer.rowCount()
        var logFrames: Int32 = -1
        var copied: Int32 = -1
        // NB: another checkpoint running (ours' idle checkpoint, on its own thread) makes this one return
        // SQLITE_BUSY at once, without waiting: it is tried again, for up to 5 s.
        var result = SQLITE_BUSY
        for _ in 0..<250 {
            result = sqlite3_wal_checkpoint_v2(peer.handle, nil, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &copied)
            guard result == SQLITE_BUSY || result == SQLITE_LOCKED else { break }
            usleep(20_000)
        }
        guard result == SQLITE_OK, logFrames == 0 else {
            throw peer.failure("wal_checkpoint(TRUNCATE) of \(path) (\(logFrames) frames left)")
        }
    }

    // MARK: The C API

    /// Ours' `SELECT`, prepared on first use (nil when it cannot be).
    @inline(__always)
    private func selectStatement() -> OpaquePointer? {
        if select == nil { select = try? prepare("SELECT type, value FROM preferences WHERE key = ?") }
        return select
    }

    /// Sets `synchronous = NORMAL` before the first write, as ours does when it opens.
    private func prepareToWrite() throws {
        guard !writable else { return }
        try execute("PRAGMA synchronous = NORMAL")
        writable = true
    }

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT`, rolling back when it throws.
    private func transaction(_ body: () throws -> Void) throws {
        if begin == nil { begin = try prepare("BEGIN IMMEDIATE") }
        if commit == nil { commit = try prepare("COMMIT") }
        try step(begin)
        do {
            try body()
            try step(commit)
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    private func upsert(_ key: String, string value: String) throws {
        try upsert(key, type: "string") { sqlite3_bind_text($0, 3, value, -1, csqlite_transient) }
    }

    private func upsert(_ key: String, integer value: Int) throws {
        try upsert(key, type: "integer") { sqlite3_bind_int64($0, 3, Int64(value)) }
    }

    /// Ours' upsert of `key` with the type tag `type` (static, bound without a copy, as ours binds it)
    /// and the value `bindValue` binds at 3.
    private func upsert(_ key: String, type: StaticString, bindValue: (OpaquePointer?) -> Int32) throws {
        if upsertStatement == nil { upsertStatement = try prepare(Self.upsertSQL) }
        let statement = upsertStatement
        try key.withCString { key in
            sqlite3_bind_text(statement, 1, key, -1, nil)
            let tag = UnsafeRawPointer(type.utf8Start).assumingMemoryBound(to: CChar.self)
            sqlite3_bind_text(statement, 2, tag, Int32(type.utf8CodeUnitCount), nil)
            _ = bindValue(statement)
            try step(statement)
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
