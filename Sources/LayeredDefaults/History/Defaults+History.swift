import Foundation

/// A key's history: reading it, taking a key back, and erasing a value with its history.
extension Defaults {
    /// The history of `key` in this instance's persistent domain, the latest change first: each entry holds
    /// the value the key held before that change, when it committed and which process wrote it. Empty when
    /// the domain keeps no history (see ``Configuration/history``) or the key never changed since.
    ///
    /// ```swift
    /// for entry in try defaults.history(forKey: "theme") {
    ///     print(entry.date, entry.writer.processName, entry.writer.userName)
    /// }
    /// ```
    /// - Throws: ``DefaultsError/undecodableHistoryEntry(suite:key:)`` for an entry that cannot be read, or
    ///   a storage error.
    public func history(forKey key: String) throws -> [HistoryEntry] {
        guard let store = try persistent.store() else { return [] }
        return try store.reading { try $0.history(forKey: key) }
    }

    /// The history of every key of this instance's persistent domain, the latest change first.
    /// - Throws: as ``history(forKey:)``.
    public func history() throws -> [HistoryEntry] {
        guard let store = try persistent.store() else { return [] }
        return try store.reading { try $0.allHistory().map(\.entry) }
    }

    /// True when the persistent domain's file holds a history (a writer kept one; it may be empty now).
    /// - Throws: a storage error.
    public var keepsHistory: Bool {
        get throws {
            guard let store = try persistent.store() else { return false }
            return try store.reading { try $0.hasHistoryTable() }
        }
    }

    /// Takes `key` back to the value its history says it held at `point`, in one transaction: a write like
    /// any other, so the domain's rules apply (a forced key, the schema) and the revert enters the history
    /// too.
    ///
    /// `.step(n)` is the value before the `n`th latest change; `.date(d)` the value the key held at `d`:
    /// the previous value of the first change after `d`, the current value when none came after, and the
    /// oldest value kept when `d` is before every entry.
    ///
    /// ```swift
    /// try defaults.revert(forKey: "theme")  // undo the latest change
    /// ```
    /// - Returns: the value written (nil: the key was removed).
    /// - Throws: ``DefaultsError/noHistoryEntry(suite:key:)`` when the history holds no such step (or no
    ///   entry at all), what ``write(_:forKey:)`` throws; nothing changes then.
    @discardableResult
    public func revert(forKey key: String, to point: HistoryPoint = .step(1)) throws -> PreferenceValue? {
        var commit: DomainStore.Commit?
        let value = try writing(in: persistent, key: key, committed: { commit = $0 }) { domain in
            let entries = try domain.history(forKey: key)
            let target: PreferenceValue?
            switch point {
            case .step(let step):
                guard step >= 1, step <= entries.count else { throw DefaultsError.noHistoryEntry(suite: suiteName, key: key) }
                target = entries[step - 1].previousValue
            case .date(let date):
                guard !entries.isEmpty else { throw DefaultsError.noHistoryEntry(suite: suiteName, key: key) }
                // The entries are the latest first: the last one after `date` is the first change after it.
                if let firstAfter = entries.last(where: { $0.date > date }) {
                    target = firstAfter.previousValue
                } else {
                    target = try domain.value(forKey: key)
                }
            }
            try domain.write(target, forKey: key)
            return target
        }
        postChange(changedKeys: CollectionOfOne(key), commit: commit)
        return value
    }

    /// Removes `key` and forgets its history, in one transaction, so that no value it held is kept in the
    /// domain's rows: the way to erase a value for good. Removing a key otherwise
    /// (``write(_:forKey:)`` with nil, ``reset(_:)``) keeps its history, and records the removal when the
    /// domain keeps history.
    ///
    /// The rows are deleted as SQLite deletes: the bytes they held may stay in the file's free pages and
    /// its write-ahead log until SQLite reuses them.
    /// - Throws: what ``write(_:forKey:)`` throws for a removal (``DefaultsError/forced(suite:key:)``, a
    ///   storage error); nothing changes then.
    public func erase(forKey key: String) throws {
        var commit: DomainStore.Commit?
        try writing(in: persistent, key: key, committed: { commit = $0 }) { domain in
            try domain.write(nil, forKey: key)
            try domain.forgetHistory(ofKey: key)
        }
        postChange(changedKeys: CollectionOfOne(key), commit: commit)
    }
}
