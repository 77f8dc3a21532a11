import Foundation

/// The SQL of one domain's database: point reads, whole-domain reads, writes, transactions.
///
/// Not `Sendable`: a ``SuiteStore`` owns it behind a lock.
final class Database {
    let connection: Connection
    let suite: String
    /// The first statement that failed in the open transaction, if any: the transaction must not commit.
    var transactionFailure: (any Error)?

    init(connection: Connection, suite: String) {
        self.connection = connection
        self.suite = suite
    }

    /// The stored value of `key`, or nil when there is none.
    /// - Throws: ``DefaultsError/undecodableValue(suite:key:type:)`` for a row that does not match its
    ///   tag (left untouched), or a ``SQLiteError``.
    func value(forKey key: String) throws -> PreferenceValue? {
        let statement = try connection.prepared("SELECT type, value FROM preferences WHERE key = ?")
        defer { statement.reset() }
        statement.bind(key, at: 1)
        guard try statement.step() else { return nil }
        guard let value = StoredValue.decode(from: statement, at: 0) else {
            throw DefaultsError.undecodableValue(suite: suite, key: key, type: statement.text(at: 0))
        }
        return value
    }

    /// Every stored value, and the keys whose rows could not be decoded (skipped, left untouched).
    /// - Throws: ``SQLiteError``.
    func allValues() throws -> (values: [String: PreferenceValue], undecodable: [DefaultsError]) {
        let statement = try connection.prepared("SELECT key, type, value FROM preferences")
        defer { statement.reset() }
        var values: [String: PreferenceValue] = [:]
        var undecodable: [DefaultsError] = []
        while try statement.step() {
            let key = statement.text(at: 0)
            if let value = StoredValue.decode(from: statement, at: 1) {
                values[key] = value
            } else {
                undecodable.append(.undecodableValue(suite: suite, key: key, type: statement.text(at: 1)))
            }
        }
        return (values, undecodable)
    }

    /// Stores `value` for `key`, or removes the key when `value` is nil.
    /// - Throws: ``SQLiteError``, or an `EncodingError` for a container that JSON cannot hold (deeper
    ///   than ``PreferenceValue/maximumNestingDepth``, which ``DomainTransaction/set(_:forKey:)`` refuses first).
    func set(_ value: PreferenceValue?, forKey key: String) throws {
        guard let value else {
            let statement = try connection.prepared("DELETE FROM preferences WHERE key = ?")
            statement.bind(key, at: 1)
            return try statement.run()
        }
        let statement = try connection.prepared(
            "INSERT INTO preferences (key, type, value) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET type = excluded.type, value = excluded.value")
        statement.bind(key, at: 1)
        try StoredValue.bind(value, to: statement, at: 2)
        try statement.run()
    }

    /// Removes every key.
    /// - Throws: ``SQLiteError``.
    func removeAll() throws {
        try connection.prepared("DELETE FROM preferences").run()
    }

    /// True when the migration `name` has been recorded.
    /// - Throws: ``SQLiteError``.
    func hasMigration(named name: String) throws -> Bool {
        let statement = try connection.prepared("SELECT 1 FROM migrations WHERE name = ?")
        defer { statement.reset() }
        statement.bind(name, at: 1)
        return try statement.step()
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

    /// Records the migration `name` as applied now.
    /// - Throws: ``SQLiteError``.
    func recordMigration(named name: String) throws {
        let statement = try connection.prepared("INSERT INTO migrations (name, applied_at) VALUES (?, ?)")
        statement.bind(name, at: 1)
        statement.bind(Date().timeIntervalSinceReferenceDate, at: 2)
        try statement.run()
    }

    /// Begins a write transaction that holds the write lock from its start.
    ///
    /// NB: `BEGIN IMMEDIATE`, because a deferred transaction that later upgrades to a writer fails at
    /// once with `SQLITE_BUSY` when another process wrote in between; the busy timeout cannot help it.
    func begin() throws {
        transactionFailure = nil
        try connection.prepared("BEGIN IMMEDIATE").run()
    }

    /// Commits the transaction.
    func commit() throws { try connection.prepared("COMMIT").run() }

    /// Rolls the transaction back, if one is open; errors are ignored (SQLite may already have rolled back).
    func rollback() { try? connection.prepared("ROLLBACK").run() }
}
