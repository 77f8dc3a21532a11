import Foundation

/// Backup and restore: the one safe way to copy a domain out of its file and back into it.
///
/// A domain's latest commits may be in its `-wal` file for a while (a process that exits before its idle
/// checkpoint leaves them there), so copying `<suite>.sqlite3` alone loses them; and a file moved or
/// copied over a domain that a process has open is mixed with the old file's `-wal` and `-shm`, which
/// SQLite finds by name: the restored keys can vanish. Both doors here go through SQLite's online backup
/// API, on the live database.
extension Defaults {
    /// Writes a copy of the domain `suiteName`, every committed write included (also those still in its
    /// write-ahead log), to the single file `destination`, created with mode 0600.
    ///
    /// The copy is a consistent snapshot, taken while other processes go on reading and writing. It is
    /// written in a hidden directory beside `destination` (`.<name>.backup-<UUID>`) and renamed into
    /// place once complete, so `destination` is never a partial file; a backup killed before that
    /// leaves the directory, and the next backup into the same directory removes it. An existing file
    /// at `destination` is refused unless `replacing` is true, which replaces it atomically.
    ///
    /// ```swift
    /// try Defaults.backup(suiteName: "com.example.app", to: URL(fileURLWithPath: "app-backup.sqlite3"))
    /// ```
    /// - Parameters:
    ///   - suiteName: the domain to copy.
    ///   - location: where the domain lives; the default resolves as for ``init(suiteName:configuration:)``.
    ///   - destination: the backup file to write.
    ///   - replacing: replace a file already at `destination` (default: refuse it).
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)``, ``DefaultsError/noSuchDomain(suite:)`` (also for an
    ///   in-memory location), ``DefaultsError/backupExists(path:)``,
    ///   ``DefaultsError/backupDestinationInUse(path:)`` (also when replacing), an error of opening the domain
    ///   (``DefaultsError/corruptStore(path:reason:)``, ...), or an error writing the copy: no room at the
    ///   destination is ``DefaultsError/fileSystemFailure(path:operation:code:)`` naming it. Nothing
    ///   is left at `destination` (or the file there is unchanged) when it throws.
    public static func backup(
        suiteName: String, location: Location = .default, to destination: URL, replacing: Bool = false
    ) throws {
        try SuiteName.validate(suiteName)
        let registry = Configuration(location: location, arguments: [], systemDirectories: []).storeRegistry()
        guard registry.root != nil, let store = try registry.store(named: suiteName, create: false) else {
            throw DefaultsError.noSuchDomain(suite: suiteName)
        }
        try DomainBackup.write(
            store, to: destination, replacing: replacing, busyTimeoutMilliseconds: registry.busyTimeoutMilliseconds)
    }

    /// Replaces the whole content of the domain `suiteName` with the backup file `backup`, in one write
    /// transaction on the live database, safe while any process has the domain open.
    ///
    /// The backup is checked first, reading only: it must be a healthy store of ours (a file made by
    /// ``backup(suiteName:location:to:replacing:)``, or a domain's file with nothing pending in a
    /// `-wal`), every row reading back exactly, else it is refused and nothing changes. Other processes
    /// then see the old content or the restored one, never a mix; their cached values and observers follow
    /// as they see any commit, this process's at once. Every key, the record of migrations run, and the
    /// history of the keys' changes (none when the backup keeps none) become the backup's, through the one
    /// write path and the rules of a write by an instance of `configuration` (whose ``Configuration/history``
    /// records the restore's own changes on top of the backup's history):
    /// a key the managed domain forces keeps its row (as in ``replacePersistentValues(_:forName:)``), and
    /// a value or key the domain's schema (``Configuration/schema``, else the installed one) refuses
    /// refuses the backup. A restore reads rows, never definitions: a backup whose layout is not exactly
    /// the store's, with or without the history table (a generated or extra column, a view, a trigger, an
    /// index, another table) is refused,
    /// and its rows may stand for no more bytes than the file holds; its page size does not come along.
    /// The domain is created when it does not exist, once the backup is known to be accepted: a refused
    /// one creates nothing. The backup file is not modified.
    ///
    /// ```swift
    /// try Defaults.restore(suiteName: "com.example.app", from: URL(fileURLWithPath: "app-backup.sqlite3"))
    /// ```
    /// - Parameters:
    ///   - suiteName: the domain to restore.
    ///   - configuration: where the domain lives, its system directories and its schema, as for
    ///     ``init(suiteName:configuration:)``.
    ///   - backup: the backup file to read.
    /// - Returns: the forced keys whose rows were kept, sorted (usually none), as
    ///   ``replacePersistentValues(_:forName:)`` returns them.
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)``, ``DefaultsError/invalidBackup(path:reason:)``,
    ///   ``DefaultsError/forced(suite:key:)`` for a key the managed domain forces whose row the backup
    ///   would change, ``DefaultsError/valueNotAccepted(suite:key:accepts:)`` or
    ///   ``DefaultsError/undeclaredKey(suite:key:nearest:)`` for a row the schema refuses,
    ///   ``DefaultsError/unsafePath(path:)``, ``DefaultsError/hardLinked(path:)`` or
    ///   ``DefaultsError/permissionDenied(path:)`` for the backup; ``DefaultsError/noSuchDomain(suite:)``
    ///   for an in-memory location; an error of opening the domain (a corrupt one: move it aside with
    ///   ``repair(suiteName:location:)`` first); ``DefaultsError/busy(suite:key:)`` or another storage
    ///   error. Nothing changes when it throws.
    @discardableResult
    public static func restore(
        suiteName: String, configuration: Configuration = Configuration(), from backup: URL
    ) throws -> [String] {
        try SuiteName.validate(suiteName)
        let registry = configuration.storeRegistry()
        guard registry.root != nil else { throw DefaultsError.noSuchDomain(suite: suiteName) }
        let domain = DomainSlot(name: suiteName, registry: registry, history: configuration.history)
        let existing = try domain.store()
        let content = try DomainBackup.contents(
            of: backup, suite: suiteName, live: existing, busyTimeoutMilliseconds: registry.busyTimeoutMilliseconds)
        let rules = try writeRules(of: suiteName, excluding: existing, root: registry.root, configuration: configuration)
        let kept = try domain.writeTransaction(rules: rules) { domain in
            // The backup's history first: the restore's own changes, when `configuration` keeps history,
            // are recorded on top of it.
            try domain.replaceHistory(with: content.history)
            let kept = try domain.replaceAll(with: content.values)
            try domain.replaceMigrationRecords(with: content.migrations)
            return kept
        }
        // This process's observers are evaluated now; other processes' at their next look.
        ObservationCenter.shared.changed(keys: nil as [String]?)
        return kept
    }
}
