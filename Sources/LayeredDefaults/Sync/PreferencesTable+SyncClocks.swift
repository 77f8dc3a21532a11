import Foundation

/// The clock of each synced key's last change, kept in the domain's own file beside its row, in a table
/// made by the first synced write (a domain that never syncs has none):
///
/// ```sql
/// CREATE TABLE sync_clocks (key TEXT PRIMARY KEY NOT NULL, wall INTEGER NOT NULL, counter INTEGER NOT NULL,
///     device TEXT NOT NULL) WITHOUT ROWID;
/// ```
/// A clock without a row in `preferences` is a removal's tombstone.
extension PreferencesTable {
    static let createSyncClocks = """
        CREATE TABLE IF NOT EXISTS sync_clocks (
            key TEXT PRIMARY KEY NOT NULL,
            wall INTEGER NOT NULL,
            counter INTEGER NOT NULL,
            device TEXT NOT NULL
        ) WITHOUT ROWID
        """

    /// True when the domain's file has the clocks' table.
    func hasSyncClocks() throws -> Bool {
        try connection.integer("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'sync_clocks'") == 1
    }

    /// Stamps `key`'s change: `clock` when given (a merged change keeps its own), else a new reading on
    /// `device` after the latest the domain holds.
    func stampSyncClock(forKey key: String, device: String, clock given: SyncClock?) throws {
        try connection.execute(Self.createSyncClocks)
        let clock = try given ?? SyncClock.tick(after: latestSyncClock(), device: device)
        let statement = try connection.statement(
            "INSERT INTO sync_clocks (key, wall, counter, device) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET wall = excluded.wall, counter = excluded.counter, device = excluded.device"
        )
        statement.bind(StoredKey.form(of: key), at: 1)
        statement.bind(Int(clock.wall), at: 2)
        statement.bind(Int(clock.counter), at: 3)
        statement.bind(clock.device, at: 4)
        try statement.run()
    }

    /// The latest clock the domain holds, or nil when none.
    private func latestSyncClock() throws -> (wall: Int64, counter: Int64)? {
        let statement = try connection.statement("SELECT wall, counter FROM sync_clocks ORDER BY wall DESC, counter DESC LIMIT 1")
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return (Int64(statement.int(at: 0)), Int64(statement.int(at: 1)))
    }

    /// Every key's clock (none when the table was never made).
    func syncClocks() throws -> [String: SyncClock] {
        guard try hasSyncClocks() else { return [:] }
        let statement = try connection.statement("SELECT key, wall, counter, device FROM sync_clocks")
        defer { statement.reset() }
        var clocks: [String: SyncClock] = [:]
        while try statement.step() {
            clocks[statement.text(at: 0)] = SyncClock(
                wall: Int64(statement.int(at: 1)), counter: Int64(statement.int(at: 2)), device: statement.text(at: 3))
        }
        return clocks
    }
}
