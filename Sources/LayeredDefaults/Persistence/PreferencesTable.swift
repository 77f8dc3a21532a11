import CSQLite
import Foundation

/// The gateway to one domain's tables (`preferences`, `migrations`): point reads, whole-domain reads,
/// writes, and the transaction statements around them.
///
/// Not `Sendable`: a ``DomainStore`` owns it behind a lock.
final class PreferencesTable {
    /// The connection to the domain's file (or in-memory database).
    let connection: Connection
    /// The domain's name, for errors.
    let suite: String
    /// The first statement that failed in the open transaction, if any: the transaction must not commit.
    var transactionFailure: (any Error)?
    /// True once ``begin()`` set `synchronous = NORMAL` on the connection.
    private(set) var isDurabilitySet = false

    /// The point read of one row by its key column: the statement of ``value(forKey:)``.
    ///
    /// One constant, so that ``DomainStore/open(name:path:status:busyTimeoutMilliseconds:)``, which
    /// compiles it (reading and checking the schema), and the first read find it in the connection's cache.
    static let pointRead: StaticString = "SELECT type, value FROM preferences WHERE key = ?"

    /// The gateway to the tables of the domain `suite`, which `connection` has open.
    init(connection: Connection, suite: String) {
        self.connection = connection
        self.suite = suite
    }

    /// The stored value of `key` (in any Unicode form, see ``StoredKey``), or nil when there is none.
    /// - Throws: ``DefaultsError/undecodableValue(suite:key:type:)`` for a row that does not match its
    ///   tag (left untouched), or a ``SQLiteError``.
    func value(forKey key: String) throws -> PreferenceValue? {
        let storedKey = StoredKey.form(of: key)
        if let value = try value(inRowKeyed: storedKey, forKey: key) { return value }
        guard let other = try otherForms(of: storedKey).first else { return nil }
        return try value(inRowKeyed: other, forKey: key)
    }

    /// The value of the row whose key column is exactly `text`, or nil when there is none.
    /// - Throws: ``DefaultsError/undecodableValue(suite:key:type:)`` naming `key`, or a ``SQLiteError``.
    private func value(inRowKeyed text: String, forKey name: String) throws -> PreferenceValue? {
        let statement = try connection.statement(Self.pointRead)
        defer { statement.reset() }
        // The key lent to the statement, not copied, while it steps to its row.
        var key = text
        guard
            try key.withUTF8({ bytes in
                statement.bind(borrowing: bytes, at: 1)
                return try statement.step()
            })
        else { return nil }
        guard let value = StoredValue.decode(from: statement, at: 0) else {
            throw DefaultsError.undecodableValue(suite: suite, key: name, type: statement.text(at: 0))
        }
        return value
    }

    /// The key columns of the rows that hold `storedKey` in another form than its stored one (written by
    /// an earlier version or another program), in byte order.
    ///
    /// A scan of the domain, which only a miss or a removal of a non-ASCII key pays.
    /// - Throws: ``SQLiteError``.
    private func otherForms(of storedKey: String) throws -> [String] {
        guard StoredKey.mayHaveOtherForms(storedKey) else { return [] }
        // The WHERE keeps the keys holding a non-ASCII byte (more bytes than characters) in C, instead of
        // making a Swift string of every key of the domain.
        let statement = try connection.statement(
            "SELECT key FROM preferences WHERE length(key) <> length(CAST(key AS BLOB)) ORDER BY key")
        defer { statement.reset() }
        var texts: [String] = []
        while try statement.step() {
            let text = statement.text(at: 0)
            if let row = StoredKey.key(ofRow: text), !row.isStoredForm, row.key.utf8.elementsEqual(storedKey.utf8) {
                texts.append(text)
            }
        }
        return texts
    }

    /// Every stored value, under the stored form of its key (see ``StoredKey``), and the keys whose rows
    /// could not be decoded (skipped, left untouched).
    /// - Throws: ``SQLiteError``.
    func allValues() throws -> (values: [String: PreferenceValue], undecodable: [DefaultsError]) {
        let statement = try connection.statement("SELECT key, type, value FROM preferences ORDER BY key")
        defer { statement.reset() }
        var values: [String: PreferenceValue] = [:]
        var undecodable: [DefaultsError] = []
        var undecodableKeys: Set<String> = []
        var others: [(key: String, value: PreferenceValue?, type: String)] = []
        while try statement.step() {
            guard let row = StoredKey.key(ofRow: statement.text(at: 0)) else { continue }
            let value = StoredValue.decode(from: statement, at: 1)
            if !row.isStoredForm {
                others.append((row.key, value, statement.text(at: 1)))
            } else if let value {
                values[row.key] = value
            } else {
                undecodable.append(.undecodableValue(suite: suite, key: row.key, type: statement.text(at: 1)))
                undecodableKeys.insert(row.key)
            }
        }
        // The row in the stored form wins (as for `value(forKey:)`); else the first other form.
        for other in others where values[other.key] == nil && undecodableKeys.insert(other.key).inserted {
            if let value = other.value {
                values[other.key] = value
            } else {
                undecodable.append(.undecodableValue(suite: suite, key: other.key, type: other.type))
            }
        }
        return (values, undecodable)
    }

    /// Why a row cannot be read back exactly (see ``exactValues()``), in words that name at most a key.
    struct InexactRow: Error {
        let reason: String
    }

    /// Every stored value under its key, read as exactly as the package's file readers read a document:
    /// for a restore, which brings back what it read or refuses. Where ``allValues()`` reads a live
    /// domain as well as it can (text that is not UTF-8 with U+FFFD, a key in several rows as the row in
    /// NFC), this refuses a key that is not UTF-8 text, a value whose text is not UTF-8 or that does not
    /// match its type, and two rows of one key (canonically equivalent spellings).
    ///
    /// What the rows stand for is bounded by what the file holds: the bytes of their keys and values
    /// (text and data as stored, a number as 8) may not pass `bytes`, the size of the file (and its log),
    /// which stored rows never pass; each row is measured before it is decoded.
    /// - Parameter bytes: the most bytes the rows' keys and values may stand for.
    /// - Throws: ``InexactRow`` for the first such row, or a ``SQLiteError``.
    func exactValues(standingForAtMost bytes: Int) throws -> [String: PreferenceValue] {
        let statement = try connection.statement("SELECT key, type, value FROM preferences ORDER BY key")
        defer { statement.reset() }
        var values: [String: PreferenceValue] = [:]
        var read = 0
        while try statement.step() {
            read += statement.storedByteCount(at: 0) + statement.storedByteCount(at: 2)
            guard read <= bytes else {
                throw InexactRow(reason: "its rows stand for more bytes than the file holds (\(bytes))")
            }
            guard let key = statement.exactText(at: 0) else { throw InexactRow(reason: "a key of its rows is not UTF-8 text") }
            if statement.columnType(at: 2) == SQLITE_TEXT && statement.exactText(at: 2) == nil {
                throw InexactRow(reason: "the value of '\(key)' is text that is not UTF-8")
            }
            guard let value = StoredValue.decode(from: statement, at: 1) else {
                throw InexactRow(reason: "the value of '\(key)' does not match its type")
            }
            guard values.updateValue(value, forKey: key) == nil else {
                throw InexactRow(reason: "two of its rows hold the key '\(key)'")
            }
        }
        return values
    }

    /// The names of every recorded migration, read as exactly as ``exactValues()`` reads the values.
    /// - Throws: ``InexactRow`` for a name that is not UTF-8 text or is recorded twice (canonically
    ///   equivalent spellings), or a ``SQLiteError``.
    func exactMigrationNames() throws -> [String] {
        let statement = try connection.statement("SELECT name FROM migrations ORDER BY applied_at")
        defer { statement.reset() }
        var names: [String] = []
        while try statement.step() {
            guard let name = statement.exactText(at: 0) else {
                throw InexactRow(reason: "a migration it records is not named in UTF-8 text")
            }
            guard !names.contains(name) else { throw InexactRow(reason: "two of its migration records name '\(name)'") }
            names.append(name)
        }
        return names
    }

    /// Stores `value` for `key` (in its stored form, see ``StoredKey``), or removes the key when `value`
    /// is nil: its rows in every form, so that none shows through afterwards.
    /// - Throws: ``SQLiteError``, or an `EncodingError` for a container that JSON cannot hold (deeper
    ///   than ``PreferenceValue/maximumNestingDepth``, which ``DomainTransaction/write(_:forKey:)`` refuses first).
    func set(_ value: PreferenceValue?, forKey key: String) throws {
        let storedKey = StoredKey.form(of: key)
        guard let value else {
            for text in try [storedKey] + otherForms(of: storedKey) {
                let statement = try connection.statement("DELETE FROM preferences WHERE key = ?")
                statement.bind(text, at: 1)
                try statement.run()
            }
            return
        }
        let statement = try connection.statement(
            "INSERT INTO preferences (key, type, value) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET type = excluded.type, value = excluded.value"
        )
        // NB: the key (and a string's text) bound from the string's own bytes, not copied by SQLite: the
        // statement runs while they are lent.
        var keyText = storedKey
        try keyText.withUTF8 { key in
            statement.bind(borrowing: key, at: 1)
            try StoredValue.withBound(value, to: statement, at: 2) { try statement.run() }
        }
    }

    /// Removes every key.
    /// - Throws: ``SQLiteError``.
    func removeAll() throws {
        try connection.statement("DELETE FROM preferences").run()
    }

    /// Removes every row whose key is not in `kept` (compared as Swift compares strings, so in any
    /// Unicode form), undecodable rows included.
    /// - Returns: the key columns of the rows removed and of those kept.
    /// - Throws: ``SQLiteError``.
    func removeAll(keeping kept: Set<String>) throws -> (removed: [String], kept: [String]) {
        let select = try connection.statement("SELECT key FROM preferences ORDER BY key")
        var keys: [String] = []
        while try select.step() { keys.append(select.text(at: 0)) }
        select.reset()
        var result: (removed: [String], kept: [String]) = ([], [])
        for key in keys {
            guard !kept.contains(key) else {
                result.kept.append(key)
                continue
            }
            let delete = try connection.statement("DELETE FROM preferences WHERE key = ?")
            delete.bind(key, at: 1)
            try delete.run()
            result.removed.append(key)
        }
        return result
    }

    /// True when the migration `name` has been recorded, in any Unicode form (see ``StoredKey``).
    /// - Throws: ``SQLiteError``.
    func hasMigration(named name: String) throws -> Bool {
        try migrationNames().contains(name)
    }

    /// The names of every recorded migration.
    /// - Throws: ``SQLiteError``.
    func migrationNames() throws -> [String] {
        let statement = try connection.statement("SELECT name FROM migrations ORDER BY applied_at")
        defer { statement.reset() }
        var names: [String] = []
        while try statement.step() { names.append(statement.text(at: 0)) }
        return names
    }

    /// Records the migration `name` as applied now, in its stored form (NFC, see ``StoredKey``).
    /// - Throws: ``SQLiteError``.
    func recordMigration(named name: String) throws {
        let statement = try connection.statement("INSERT INTO migrations (name, applied_at) VALUES (?, ?)")
        statement.bind(StoredKey.form(of: name), at: 1)
        statement.bind(Date().timeIntervalSinceReferenceDate, at: 2)
        try statement.run()
    }

    /// Begins a write transaction that holds the write lock from its start.
    ///
    /// NB: `BEGIN IMMEDIATE`, because a deferred transaction that later upgrades to a writer fails at
    /// once with `SQLITE_BUSY` when another process wrote in between; the busy timeout cannot help it.
    func begin() throws {
        prepareToWrite()
        if !isDurabilitySet { try setDurability() }
        try connection.statement("BEGIN IMMEDIATE").run()
    }

    /// Prepares a write that is one statement, which commits on its own (autocommit): what ``begin()``
    /// does but the `BEGIN`.
    func beginStatement() throws {
        prepareToWrite()
        if !isDurabilitySet { try setDurability() }
    }

    /// Forgets the failure of the last transaction.
    private func prepareToWrite() { transactionFailure = nil }

    /// Sets `synchronous = NORMAL`: in WAL mode, durable at each commit, the log synced at checkpoints only.
    ///
    /// Set by the first write, not at open: reads do not depend on it, and an opened store that is
    /// only read (most are) never compiles it. Out of line, so that every later ``begin()`` stays small.
    @inline(never)
    private func setDurability() throws {
        _ = try connection.text("PRAGMA synchronous = NORMAL")
        isDurabilitySet = true
    }

    /// Commits the transaction.
    func commit() throws { try connection.statement("COMMIT").run() }

    /// Rolls the transaction back, if one is open; errors are ignored (SQLite may already have rolled back).
    func rollback() { try? connection.statement("ROLLBACK").run() }
}
