import Foundation

/// A write transaction on one persistent domain, given to the body of ``Defaults/transaction(_:)``.
///
/// Reads see the committed state as of the start of the transaction plus this transaction's own
/// changes. Nothing is visible to other instances or processes until the body returns and the
/// transaction commits; if the body throws, nothing is changed.
public struct DomainTransaction: ~Copyable {
    let table: PreferencesTable
    /// The keys changed so far, with their new values (nil: removed), in order (a later change of a
    /// key supersedes an earlier one), for the in-memory view.
    ///
    /// A list, not a dictionary: a batch of writes pays no hashing here; the view is patched in order.
    var changes: [(key: String, value: PreferenceValue?)] = []
    /// True when ``removeAll()`` ran: the in-memory view must forget every key not in `changes`.
    var removedAll = false
    /// What this transaction records of its changes, for a domain that keeps history (nil otherwise).
    ///
    /// NB: one reference, so that a transaction of a domain without history carries one nil word more
    /// and nothing else, and recording is not a mutating call. Set once, but by ``replaceHistory(with:)``.
    private var recorded: RecordedKeys?

    /// What a transaction records, and the keys (stored forms) it recorded: every key's changes under
    /// `bound`, or (`everyKey` false) only those of the keys the schema marks as keeping history
    /// (``WriteRules/keepsHistory(_:)``); `isConfigured` when the writer configured it
    /// (``Defaults/Configuration/history``), rather than the domain's schema or file asking for it. A key
    /// changed several times in one transaction is one change, which keeps the value it held before the
    /// transaction.
    ///
    /// NB: a class, made only for a transaction that records: the transaction of a domain without history
    /// is handed one nil word.
    final class RecordedKeys {
        let bound: Defaults.History
        let everyKey: Bool
        let isConfigured: Bool
        var keys: Set<String> = []

        init(bound: Defaults.History, everyKey: Bool, isConfigured: Bool) {
            (self.bound, self.everyKey, self.isConfigured) = (bound, everyKey, isConfigured)
        }
    }

    /// True when this transaction may have made the history table: it recorded under a policy, or
    /// replaced the history.
    var mayHaveMadeHistory: Bool { recorded != nil || replacedHistory }
    private var replacedHistory = false

    /// What ``write(_:forKey:)`` refuses and ``removeAll()`` keeps: the forced keys and the schema.
    let rules: WriteRules
    /// The device that stamps a change of a syncing key (``WriteRules/syncs(_:)``) with its clock (see
    /// <doc:Sync>): the writer's, where it syncs; nil for every domain but a syncing instance's own
    /// persistent one.
    ///
    /// NB: set after the transaction is made, and only where the writer syncs: passed to the initializer,
    /// every write paid for copying it.
    var syncDevice: String?
    /// The clock of the change being merged from another device, which its write keeps (see <doc:Sync>);
    /// nil for a change made here, which gets a new one.
    var arrivingClock: SyncClock?

    init(table: PreferencesTable, rules: WriteRules, recording: RecordedKeys?) {
        self.table = table
        self.rules = rules
        recorded = recording
    }

    /// The name of the domain.
    public var suiteName: String { table.suite }

    /// The value stored for `key` in this domain (no other domain is searched).
    /// - Throws: ``DefaultsError`` when the row cannot be read or decoded.
    public func value(forKey key: String) throws -> PreferenceValue? {
        try recordingFailure { try table.value(forKey: key) }
    }

    /// Every value stored in this domain.
    /// - Throws: ``DefaultsError`` when the domain cannot be read.
    public func values() throws -> [String: PreferenceValue] {
        try recordingFailure { try table.allValues().values }
    }

    /// True when the domain holds no value and no migration record.
    var isEmpty: Bool {
        get throws { try recordingFailure { try table.allValues().values.isEmpty && table.migrationNames().isEmpty } }
    }

    /// True when the managed domain forces `key`: ``write(_:forKey:)`` refuses it with
    /// ``DefaultsError/forced(suite:key:)``, and ``removeAll()`` keeps its row.
    public func isForced(_ key: String) -> Bool {
        rules.forcedKeys.contains(key)
    }

    /// Stores `value` for `key`; nil removes the key.
    /// - Throws: ``DefaultsError/invalidKey(suite:)`` for an empty key,
    ///   ``DefaultsError/nestingTooDeep(suite:key:limit:)`` for a value nested deeper than
    ///   ``PreferenceValue/maximumNestingDepth``, ``DefaultsError/dateOutOfRange(suite:key:)`` for a date
    ///   outside ``PreferenceValue/dateRange``, ``DefaultsError/forced(suite:key:)`` for a key of the
    ///   managed domain, ``DefaultsError/undeclaredKey(suite:key:nearest:)`` or
    ///   ``DefaultsError/valueNotAccepted(suite:key:accepts:)`` for a key or value the domain's schema
    ///   refuses (all before anything is written), or a storage error.
    public mutating func write(_ value: PreferenceValue?, forKey key: String) throws {
        try write(value, forKey: key, declared: nil)
    }

    /// ``write(_:forKey:)``, for a key the app declared as `declared` (a typed key's entry), which applies
    /// where the domain's schema does not declare the key.
    mutating func write(_ value: PreferenceValue?, forKey key: String, declared: PreferenceSchema.Entry?) throws {
        // NB: before the key is hashed (see `String.isStreamSafe`).
        guard !key.isEmpty, key.isStreamSafe else { throw DefaultsError.invalidKey(suite: suiteName) }
        // Every change of a row by any API comes here or to `removeAll`, so these checks cover them all.
        try rules.check(value, forKey: key, declared: declared, suite: suiteName)
        try value?.checkStorable(suite: suiteName, key: key)
        if recorded != nil { try recordChange(of: key, to: value) }
        try recordingFailure { try table.set(value, forKey: key) }
        if syncDevice != nil { try stampSyncClock(of: key, to: value) }
        changes.append((key, value))
    }

    /// Stamps the change of `key` to `value` with its clock (``arrivingClock``, else a new one of
    /// ``syncDevice``) when the key syncs (``WriteRules/syncs(_:)``).
    ///
    /// NB: out of line, and asked only where the writer syncs: the write of a domain that does not sync
    /// pays one comparison, and no copy of the device.
    @inline(never)
    private func stampSyncClock(of key: String, to value: PreferenceValue?) throws {
        guard let device = syncDevice, rules.syncs(key) else { return }
        try recordingFailure { try table.stampSyncClock(forKey: key, value: value, device: device, clock: arrivingClock) }
    }

    /// Records, for a domain that keeps history, the value `key` holds before this transaction changes it to
    /// `newValue` (`known`, when the caller read it): once per key and transaction, and only when the value
    /// changes.
    ///
    /// NB: a previous row that does not decode is not recorded (there is no value to keep), and does not
    /// keep the write from replacing it.
    @inline(never)
    private func recordChange(of key: String, to newValue: PreferenceValue?, previous known: PreferenceValue?? = nil) throws {
        // NB: a key the schema does not mark still records when it has history already (a writer that
        // configured history for every key made it): a writer that skipped its changes would leave a gap
        // that a revert jumps.
        guard let recorded else { return }
        if !recorded.everyKey, !rules.keepsHistory(key) {
            guard try recordingFailure({ try table.hasHistory(forKey: key) }) else { return }
        }
        let storedKey = StoredKey.form(of: key)
        guard !recorded.keys.contains(storedKey) else { return }
        let previous: PreferenceValue?
        if let known {
            previous = known
        } else {
            do {
                previous = try value(forKey: key)
            } catch is DefaultsError {
                return
            }
        }
        guard previous != newValue else { return }
        recorded.keys.insert(storedKey)
        try recordingFailure { try table.recordHistory(of: key, previous: previous, bound: recorded.bound) }
    }

    /// The entries of `key`'s history as this transaction sees them, the latest first.
    /// - Throws: ``DefaultsError/undecodableValue(suite:key:type:)`` or a storage error.
    func history(forKey key: String) throws -> [Defaults.HistoryEntry] {
        try recordingFailure { try table.history(forKey: key) }
    }

    /// Forgets every entry of `key`'s history (nothing when the domain keeps none), so that a value removed
    /// with it is not kept there: what ``Defaults/erase(forKey:)`` does after removing the value.
    /// - Throws: a storage error.
    mutating func forgetHistory(ofKey key: String) throws {
        try recordingFailure { try table.forgetHistory(ofKey: key) }
        markRecorded(CollectionOfOne(StoredKey.form(of: key)))
    }

    /// Adds `storedKeys` to ``recorded``, when the domain keeps history.
    private func markRecorded(_ storedKeys: some Sequence<String>) {
        recorded?.keys.formUnion(storedKeys)
    }

    /// Makes `rows` the domain's whole history (a restore brings the backup's). The rest of the
    /// transaction records its changes on top only where the writer configured history: the domain's own
    /// history is the one replaced.
    mutating func replaceHistory(with rows: [PreferencesTable.HistoryRow]) throws {
        replacedHistory = true
        if let recorded, !recorded.isConfigured { self.recorded = nil }
        try recordingFailure { try table.replaceHistory(with: rows) }
    }

    /// Makes `rows` the domain's whole history, as a first commit's replay of what its body did in memory
    /// finds it: its changes of `keys` are already in `rows`, and are not recorded again.
    mutating func adoptHistory(_ rows: [PreferencesTable.HistoryRow], covering keys: some Sequence<String>) throws {
        if !rows.isEmpty { try replaceHistory(with: rows) }
        markRecorded(keys.lazy.map(StoredKey.form(of:)))
    }

    /// Moves the value of `oldKey` to `newKey` (replacing what `newKey` held); nothing when `oldKey` holds
    /// none, or when the two are the same key.
    /// - Returns: true when `oldKey` held a value.
    /// - Throws: ``DefaultsError/invalidKey(suite:)`` for an empty key, or a storage error.
    @discardableResult
    public mutating func renameKey(_ oldKey: String, to newKey: String) throws -> Bool {
        guard !newKey.isEmpty else { throw DefaultsError.invalidKey(suite: suiteName) }
        guard let value = try value(forKey: oldKey) else { return false }
        guard oldKey != newKey else { return true }
        try write(value, forKey: newKey)
        try write(nil, forKey: oldKey)
        return true
    }

    /// Runs one statement of the transaction. After a statement failed, the transaction is dead: every
    /// later one, and the commit, fail with that first error, even if the body caught it.
    private func recordingFailure<T>(_ statement: () throws -> T) throws -> T {
        if let failed = table.transactionFailure { throw failed }
        do {
            return try statement()
        } catch let error as DefaultsError {
            throw error  // a row that does not decode: the transaction itself is fine
        } catch {
            table.transactionFailure = error
            throw error
        }
    }

    /// Replaces every key of this domain with `values`, but for a key the managed domain forces, whose
    /// row is kept (see ``removeAll()``): `values` may hold it only with that same value.
    /// - Returns: the forced keys whose rows were kept, sorted (usually none).
    /// - Throws: ``DefaultsError/forced(suite:key:)`` for a forced key whose value `values` would change,
    ///   or what ``write(_:forKey:)`` throws.
    @discardableResult
    public mutating func replaceAll(with values: [String: PreferenceValue]) throws -> [String] {
        // The schema's refusal names the first key in order, the same every time, not the first a
        // dictionary happens to give.
        if rules.schema != nil {
            for key in values.keys.sorted() where !rules.forcedKeys.contains(key) {
                try rules.check(values[key], forKey: key, declared: nil, suite: suiteName)
            }
        }
        if recorded != nil {
            // Each key's change is from what it holds to what `values` gives it: a key given its own value
            // again is no change (the removal below records nothing then).
            let (stored, _) = try recordingFailure { try table.allValues() }
            for key in Set(stored.keys).union(values.keys).sorted() where !rules.forcedKeys.contains(key) {
                try recordChange(of: key, to: values[key], previous: .some(stored[key]))
                markRecorded(CollectionOfOne(StoredKey.form(of: key)))
            }
        }
        let kept = try removeAll()
        for (key, value) in values {
            if kept.contains(key), try self.value(forKey: key) == value { continue }
            try write(value, forKey: key)
        }
        return kept
    }

    /// Makes `names` the migrations recorded as run (a restore brings the backup's record).
    mutating func replaceMigrationRecords(with names: [String]) throws {
        try recordingFailure {
            try table.connection.statement("DELETE FROM migrations").run()
            for name in names { try table.recordMigration(named: name) }
        }
    }

    /// Removes every key of this domain but those the managed domain forces: their rows, the user's own
    /// values that the forced ones shadow, are kept (as no write may change them).
    /// - Returns: the keys kept, sorted (usually none).
    /// - Throws: a storage error.
    @discardableResult
    public mutating func removeAll() throws -> [String] {
        if recorded != nil {
            let (stored, _) = try recordingFailure { try table.allValues() }
            for (key, value) in stored where !rules.forcedKeys.contains(key) {
                try recordChange(of: key, to: nil, previous: .some(value))
            }
        }
        // A removed syncing key leaves a tombstone, so the removal travels.
        let synced = syncDevice == nil ? [] : try values().keys.filter { rules.syncs($0) }
        defer {
            if let device = syncDevice {
                for key in synced where !rules.forcedKeys.contains(key) {
                    try? recordingFailure { try table.stampSyncClock(forKey: key, value: nil, device: device, clock: nil) }
                }
            }
        }
        guard !rules.forcedKeys.isEmpty else {
            try recordingFailure { try table.removeAll() }
            changes.removeAll()
            removedAll = true
            return []
        }
        let (removed, kept) = try recordingFailure { try table.removeAll(keeping: rules.forcedKeys) }
        changes.append(contentsOf: removed.map { ($0, nil) })
        return kept
    }
}
