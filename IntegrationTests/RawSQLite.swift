import CSQLite

/// Direct SQLite access for tests that inspect or damage a domain's database behind the library's back.
enum RawSQLite {
    /// The first column of the first row of `sql` run on the database at `path`, as text; nil when the
    /// database cannot be opened or the statement fails.
    static func firstText(_ sql: String, at path: String) -> String? {
        var database: OpaquePointer?
        defer { sqlite3_close(database) }
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { return nil }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else { return nil }
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? ""
        case SQLITE_DONE: return ""
        default: return nil
        }
    }

    /// The first row of `PRAGMA integrity_check` on the database at `path`: "ok" when it is sound.
    static func integrityCheck(_ path: String) -> String {
        firstText("PRAGMA integrity_check", at: path) ?? "cannot run the check"
    }
}
