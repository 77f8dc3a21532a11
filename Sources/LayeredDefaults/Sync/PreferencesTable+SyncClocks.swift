import Foundation

/// The last synced change of each key, kept in the domain's own file beside its row, in a table made by
/// the first synced write (a domain that never syncs has none):
///
/// ```sql
/// CREATE TABLE sync_clocks (key TEXT PRIMARY KEY NOT NULL, wall INTEGER NOT NULL, counter INTEGER NOT NULL,
///     device TEXT NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
/// ```
/// `value` is the value the change set, as tagged JSON, or '' for a removal (a tombstone): so a later change
/// of the row by a writer that does not sync (`prefs` without a folder, an older version) is seen.
extension PreferencesTable {
    /// A key's last synced change: its clock and the value it set (nil: removed).
    struct SyncedChange: Equatable {
        let clock: SyncClock
        let value: PreferenceValue?
        /// `value` as stored: compared as text, so a value whose JSON does not round-trip to an equal one
        /// is never taken for a change.
        let text: String
    }

    /// The stored text of `value`: tagged JSON, '' for a removal.
    static func syncText(of value: PreferenceValue?) throws -> String {
        try value.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) } ?? ""
    }

    static let createSyncClocks = """
        CREATE TABLE IF NOT EXISTS sync_clocks (
            key TEXT PRIMARY KEY NOT NULL,
            wall INTEGER NOT NULL,
            counter INTEGER NOT NULL,
            device TEXT NOT NULL,
            value TEXT NOT NULL
        ) WITHOUT ROWID
        """

    /// True when the domain's file has the clocks' table.
    func hasSyncClocks() throws -> Bool {
        try connection.integer("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'sync_clocks'") == 1
    }

    /// Stamps `key`'s change to `value` (nil: removed): with `clock` when given (a merged change keeps its
    /// own), else a new reading on `device` after the latest the domain holds.
    func stampSyncClock(forKey key: String, value: PreferenceValue?, device: String, clock given: SyncClock?) throws {
        try connection.execute(Self.createSyncClocks)
        let clock = try given ?? SyncClock.tick(after: latestSyncClock(), device: device)
        let text = try Self.syncText(of: value)
        let statement = try connection.statement(
            "INSERT INTO sync_clocks (key, wall, counter, device, value) VALUES (?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET wall = excluded.wall, counter = excluded.counter, device = excluded.device, value = excluded.value"
        )
        statement.bind(StoredKey.form(of: key), at: 1)
        statement.bind(Int(clock.wall), at: 2)
        statement.bind(Int(clock.counter), at: 3)
        statement.bind(clock.device, at: 4)
        statement.bind(text, at: 5)
        try statement.run()
    }

    /// The latest clock the domain holds, or nil when none.
    private func latestSyncClock() throws -> (wall: Int64, counter: Int64)? {
        let statement = try connection.statement("SELECT wall, counter FROM sync_clocks ORDER BY wall DESC, counter DESC LIMIT 1")
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return (Int64(statement.int(at: 0)), Int64(statement.int(at: 1)))
    }

    /// Every key's last synced change (none when the table was never made).
    func syncedChanges() throws -> [String: SyncedChange] {
        guard try hasSyncClocks() else { return [:] }
        let statement = try connection.statement("SELECT key, wall, counter, device, value FROM sync_clocks")
        defer { statement.reset() }
        var changes: [String: SyncedChange] = [:]
        while try statement.step() {
            let text = statement.text(at: 4)
            let value = text.isEmpty ? nil : try? JSONDecoder().decode(PreferenceValue.self, from: Data(text.utf8))
            changes[statement.text(at: 0)] = SyncedChange(
                clock: SyncClock(
                    wall: Int64(statement.int(at: 1)), counter: Int64(statement.int(at: 2)), device: statement.text(at: 3)),
                value: value, text: text)
        }
        return changes
    }

    /// Stamps the changes of syncing keys made without a clock, so that they travel:
    /// - a row no synced change stands for (stored before the domain synced, or by a writer that does not
    ///   sync, where the key never had a synced change) gets the lowest clock: it fills a key no device
    ///   changed, and loses to every change (a first launch's values never win over synced ones);
    /// - a row, or its absence, unlike the value of the key's last synced change (a writer that does not
    ///   sync changed it since) gets a new clock: it is a change made here, after that one.
    /// - Returns: the changes, as stamped now.
    @discardableResult
    func stampUnsyncedChanges(device: String, syncs: (String) -> Bool) throws -> [String: SyncedChange] {
        let changes = try syncedChanges()
        let values = try allValues().values
        var stamped = false
        for (key, value) in values where syncs(key) && changes[StoredKey.form(of: key)] == nil {
            try stampSyncClock(forKey: key, value: value, device: device, clock: SyncClock(wall: 0, counter: 0, device: device))
            stamped = true
        }
        for (key, change) in changes where try syncs(key) && change.text != Self.syncText(of: values[key]) {
            try stampSyncClock(forKey: key, value: values[key], device: device, clock: nil)
            stamped = true
        }
        return stamped ? try syncedChanges() : changes
    }
}
