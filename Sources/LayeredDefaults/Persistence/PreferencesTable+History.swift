import CSQLite
import Foundation

/// The `history` table: a key's previous values, kept by the commits of a domain that keeps history
/// (see ``Defaults/History``), created by the first entry it holds.
///
/// ```sql
/// CREATE TABLE history (
///     key TEXT NOT NULL, seq INTEGER NOT NULL, changed_at REAL NOT NULL, type TEXT NOT NULL, value NOT NULL,
///     process TEXT NOT NULL, executable TEXT NOT NULL, uid INTEGER NOT NULL, user TEXT NOT NULL,
///     PRIMARY KEY (key, seq)
/// ) WITHOUT ROWID;
/// ```
/// `key` is the key's stored form (``StoredKey``); `seq` counts the key's entries from 1, the latest
/// highest; `type` and `value` are the previous value as ``StoredValue`` stores it, or `unset` and 0;
/// `changed_at` is seconds since 2001-01-01 UTC.
extension PreferencesTable {
    /// The statement that makes the table; one constant, so ``TableLayout`` checks a backup's against it.
    static let createHistory: StaticString = """
        CREATE TABLE IF NOT EXISTS history (
            key TEXT NOT NULL,
            seq INTEGER NOT NULL,
            changed_at REAL NOT NULL,
            type TEXT NOT NULL,
            value NOT NULL,
            process TEXT NOT NULL,
            executable TEXT NOT NULL,
            uid INTEGER NOT NULL,
            user TEXT NOT NULL,
            PRIMARY KEY (key, seq)
        ) WITHOUT ROWID
        """

    /// The type tag of an entry whose key was unset before the change.
    static let unsetTag: StaticString = "unset"

    /// One row of the table, as read or to be written back (a restore keeps `seq`).
    struct HistoryRow {
        let storedKey: String
        let seq: Int
        let entry: Defaults.HistoryEntry
    }

    /// True when the file holds the history table.
    /// - Throws: ``SQLiteError``.
    func hasHistoryTable() throws -> Bool {
        let statement = try connection.statement(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'history'")
        defer { statement.reset() }
        return try statement.step() && statement.int(at: 0) > 0
    }

    /// Records that `key` held `previous` before a change committed now by this process, then drops the
    /// key's oldest entries beyond `bound`. Makes the table when the file has none.
    /// - Throws: ``SQLiteError``, or an `EncodingError` for a value JSON cannot hold.
    func recordHistory(of key: String, previous: PreferenceValue?, bound: Defaults.History) throws {
        try connection.statement(Self.createHistory).run()
        let storedKey = StoredKey.form(of: key)
        let statement = try connection.statement(
            """
            INSERT INTO history (key, seq, changed_at, type, value, process, executable, uid, user)
            VALUES (?1, (SELECT coalesce(max(seq), 0) + 1 FROM history WHERE key = ?1), ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        let writer = Defaults.HistoryWriter.current
        statement.bind(storedKey, at: 1)
        statement.bind(Date().timeIntervalSinceReferenceDate, at: 2)
        if let previous {
            try StoredValue.bind(previous, to: statement, at: 3)
        } else {
            statement.bind(Self.unsetTag, at: 3)
            statement.bind(0, at: 4)
        }
        statement.bind(writer.processName, at: 5)
        statement.bind(writer.executablePath, at: 6)
        statement.bind(Int(writer.userID), at: 7)
        statement.bind(writer.userName, at: 8)
        try statement.run()
        try trimHistory(ofStoredKey: storedKey, to: bound)
    }

    /// Drops the entry just written when its previous value alone is larger than `bound`'s bytes, and with
    /// it every older entry of the key (its history then starts after this change: a history with a gap
    /// would make a revert jump a change); else the oldest entries of the key until `bound` holds: at most
    /// its entries, whose previous values stand for at most its bytes.
    private func trimHistory(ofStoredKey storedKey: String, to bound: Defaults.History) throws {
        let select = try connection.statement("SELECT seq, value FROM history WHERE key = ? ORDER BY seq DESC")
        select.bind(storedKey, at: 1)
        var (count, bytes) = (0, 0)
        var (tooLarge, cut): (Int?, Int?) = (nil, nil)
        while try select.step() {
            let size = select.storedByteCount(at: 1)
            if count == 0, tooLarge == nil, size > bound.maximumBytes {
                tooLarge = select.int(at: 0)
                continue
            }
            count += 1
            bytes += size
            if count > bound.maximumEntries || bytes > bound.maximumBytes {
                cut = select.int(at: 0)
                break
            }
        }
        select.reset()
        guard tooLarge != nil || cut != nil else { return }
        if let tooLarge { cut = tooLarge }
        let delete = try connection.statement("DELETE FROM history WHERE key = ? AND (seq = ? OR seq <= ?)")
        delete.bind(storedKey, at: 1)
        delete.bind(tooLarge ?? 0, at: 2)
        delete.bind(cut ?? 0, at: 3)
        try delete.run()
    }

    /// True when the file holds an entry of `key` (in any Unicode form); false when it has no history.
    func hasHistory(forKey key: String) throws -> Bool {
        guard try hasHistoryTable() else { return false }
        let statement = try connection.statement("SELECT 1 FROM history WHERE key = ? LIMIT 1")
        defer { statement.reset() }
        statement.bind(StoredKey.form(of: key), at: 1)
        return try statement.step()
    }

    /// The entries of `key` (in any Unicode form), the latest first; none when the file has no history.
    /// - Throws: ``DefaultsError/undecodableHistoryEntry(suite:key:)`` for an entry that does not match
    ///   its type, or a ``SQLiteError``.
    func history(forKey key: String) throws -> [Defaults.HistoryEntry] {
        guard try hasHistoryTable() else { return [] }
        let statement = try connection.statement(
            """
            SELECT key, seq, changed_at, type, value, process, executable, uid, user FROM history
            WHERE key = ? ORDER BY seq DESC
            """)
        defer { statement.reset() }
        statement.bind(StoredKey.form(of: key), at: 1)
        var entries: [Defaults.HistoryEntry] = []
        while try statement.step() { entries.append(try historyRow(statement, naming: key).entry) }
        return entries
    }

    /// Every entry of every key, the latest change first (by time, then by key).
    /// - Throws: as ``history(forKey:)``.
    func allHistory() throws -> [HistoryRow] {
        guard try hasHistoryTable() else { return [] }
        let statement = try connection.statement(
            """
            SELECT key, seq, changed_at, type, value, process, executable, uid, user FROM history
            ORDER BY changed_at DESC, key, seq DESC
            """)
        defer { statement.reset() }
        var rows: [HistoryRow] = []
        while try statement.step() { rows.append(try historyRow(statement, naming: nil)) }
        return rows
    }

    /// The row `statement` is on (the columns of ``history(forKey:)``).
    private func historyRow(_ statement: Statement, naming key: String?) throws -> HistoryRow {
        let storedKey = statement.text(at: 0)
        let previous: PreferenceValue?
        if statement.text(at: 3) == Self.unsetTag.description {
            previous = nil
        } else if let value = StoredValue.decode(from: statement, at: 3) {
            previous = value
        } else {
            throw DefaultsError.undecodableHistoryEntry(suite: suite, key: key ?? storedKey)
        }
        // NB: a time no date the store holds can be (NaN, past the year 9999) is no entry of ours either.
        let date = Date(timeIntervalSinceReferenceDate: statement.double(at: 2))
        guard PreferenceValue.dateRange.contains(date) else {
            throw DefaultsError.undecodableHistoryEntry(suite: suite, key: key ?? storedKey)
        }
        let writer = Defaults.HistoryWriter(
            processName: statement.text(at: 5), executablePath: statement.text(at: 6),
            userID: UInt32(truncatingIfNeeded: statement.int(at: 7)), userName: statement.text(at: 8))
        let entry = Defaults.HistoryEntry(key: key ?? storedKey, previousValue: previous, date: date, writer: writer)
        return HistoryRow(storedKey: storedKey, seq: statement.int(at: 1), entry: entry)
    }

    /// Removes every entry of `key` (its stored form); nothing when the file has no history.
    /// - Throws: ``SQLiteError``.
    func forgetHistory(ofKey key: String) throws {
        guard try hasHistoryTable() else { return }
        let statement = try connection.statement("DELETE FROM history WHERE key = ?")
        statement.bind(StoredKey.form(of: key), at: 1)
        try statement.run()
    }

    /// Every entry, read as exactly as ``exactValues(standingForAtMost:)`` reads the values, for a
    /// restore: text that is not UTF-8, a previous value that does not match its type, or more bytes
    /// than `bytes` (what the file holds) is refused.
    /// - Throws: ``InexactRow`` for the first such row, or a ``SQLiteError``.
    func exactHistory(standingForAtMost bytes: Int) throws -> [HistoryRow] {
        guard try hasHistoryTable() else { return [] }
        let statement = try connection.statement(
            """
            SELECT key, seq, changed_at, type, value, process, executable, uid, user FROM history ORDER BY key, seq
            """)
        defer { statement.reset() }
        var rows: [HistoryRow] = []
        var read = 0
        while try statement.step() {
            for column: Int32 in [0, 4, 5, 6, 8] { read += statement.storedByteCount(at: column) }
            guard read <= bytes else {
                throw InexactRow(reason: "its history stands for more bytes than the file holds (\(bytes))")
            }
            guard let key = statement.exactText(at: 0), statement.exactText(at: 5) != nil,
                statement.exactText(at: 6) != nil, statement.exactText(at: 8) != nil,
                statement.columnType(at: 1) == SQLITE_INTEGER, statement.columnType(at: 7) == SQLITE_INTEGER,
                statement.columnType(at: 2) == SQLITE_FLOAT || statement.columnType(at: 2) == SQLITE_INTEGER
            else { throw InexactRow(reason: "an entry of its history is not of the types LayeredDefaults writes") }
            if statement.columnType(at: 4) == SQLITE_TEXT && statement.exactText(at: 4) == nil {
                throw InexactRow(reason: "a previous value of '\(key)' in its history is text that is not UTF-8")
            }
            guard let row = try? historyRow(statement, naming: nil) else {
                throw InexactRow(reason: "a previous value of '\(key)' in its history does not match its type")
            }
            rows.append(row)
        }
        return rows
    }

    /// Makes `rows` the whole history: removes every entry, and writes `rows` (a restore's), making the
    /// table only when there is a row to write.
    /// - Throws: ``SQLiteError``, or an `EncodingError` for a value JSON cannot hold.
    func replaceHistory(with rows: [HistoryRow]) throws {
        if try hasHistoryTable() { try connection.statement("DELETE FROM history").run() }
        guard !rows.isEmpty else { return }
        try connection.statement(Self.createHistory).run()
        let statement = try connection.statement(
            """
            INSERT INTO history (key, seq, changed_at, type, value, process, executable, uid, user)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for row in rows {
            statement.bind(row.storedKey, at: 1)
            statement.bind(row.seq, at: 2)
            statement.bind(row.entry.date.timeIntervalSinceReferenceDate, at: 3)
            if let previous = row.entry.previousValue {
                try StoredValue.bind(previous, to: statement, at: 4)
            } else {
                statement.bind(Self.unsetTag, at: 4)
                statement.bind(0, at: 5)
            }
            statement.bind(row.entry.writer.processName, at: 6)
            statement.bind(row.entry.writer.executablePath, at: 7)
            statement.bind(Int(row.entry.writer.userID), at: 8)
            statement.bind(row.entry.writer.userName, at: 9)
            try statement.run()
        }
    }
}
