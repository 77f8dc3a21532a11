import Foundation

/// Backup and restore: the one safe way to copy a domain out of its file and back into it.
///
/// A domain's latest commits may be in its `-wal` file for a while (a process that exits before its idle
/// checkpoint leaves them there), so copying `<suite>.sqlite3` alone loses them; and a file moved or
/// copied over a domain that a process has open is mixed with the old file's `-wal` and `-shm`, which
/// SQLite finds by name: the restored keys can vanish. Both doors here go through SQLite's online backup
/// API, on the live database.
extension Defaults.Domain {
    /// Writes a copy of the domain, every committed write included (also those still in its
    /// write-ahead log), to the single file `destination`, created with mode 0600.
    ///
    /// The copy is a consistent snapshot, taken while other processes go on reading and writing. It is
    /// written in a hidden directory beside `destination` (`.<name>.backup-<UUID>`) and renamed into
    /// place once complete, so `destination` is never a partial file; a backup killed before that
    /// leaves the directory, and the next backup into the same directory removes it. An existing file
    /// at `destination` is refused unless `replacing` is true, which replaces it atomically.
    ///
    /// ```swift
    /// try Defaults.Domain("com.example.app").backup(to: URL(fileURLWithPath: "app-backup.sqlite3"))
    /// ```
    /// - Parameters:
    ///   - destination: the backup file to write.
    ///   - replacing: replace a file already at `destination` (default: refuse it).
    /// - Throws: ``DefaultsError/noSuchDomain(suite:)`` (also for an in-memory location), ``DefaultsError/backupExists(path:)``,
    ///   ``DefaultsError/backupDestinationInUse(path:)`` (also when replacing), an error of opening the domain
    ///   (``DefaultsError/corruptStore(path:reason:)``, ...), or an error writing the copy: no room at the
    ///   destination is ``DefaultsError/fileSystemFailure(path:operation:code:)`` naming it. Nothing
    ///   is left at `destination` (or the file there is unchanged) when it throws.
    public func backup(to destination: URL, replacing: Bool = false) throws {
        let registry = configuration().storeRegistry()
        guard registry.root != nil, let store = try registry.store(named: name, create: false) else {
            throw DefaultsError.noSuchDomain(suite: name)
        }
        try DomainBackup.write(
            store, to: destination, replacing: replacing, busyTimeoutMilliseconds: registry.busyTimeoutMilliseconds)
    }

    /// Replaces the whole content of the domain with the backup file `backup`, in one write
    /// transaction on the live database, safe while any process has the domain open.
    ///
    /// The backup is checked first, reading only: it must be a healthy store of ours (a file made by
    /// ``backup(to:replacing:)``, or a domain's file with nothing pending in a
    /// `-wal`), every row reading back exactly, else it is refused and nothing changes. Other processes
    /// then see the old content or the restored one, never a mix; their cached values and observers follow
    /// as they see any commit, this process's at once. Every key, the record of migrations run, and the
    /// history of the keys' changes (none when the backup keeps none) become the backup's, through the one
    /// write path and the rules of a write by a store of the domain:
    /// a key the managed domain forces keeps its row (as in ``Defaults/replacePersistentValues(_:forName:)``), and
    /// a value or key the domain's schema (`schema`, else the installed one) refuses
    /// refuses the backup. A restore reads rows, never definitions: a backup whose layout is not exactly
    /// the store's, with or without the history table (a generated or extra column, a view, a trigger, an
    /// index, another table) is refused,
    /// and its rows may stand for no more bytes than the file holds; its page size does not come along.
    /// The domain is created when it does not exist, once the backup is known to be accepted: a refused
    /// one creates nothing. The backup file is not modified.
    ///
    /// ```swift
    /// try Defaults.Domain("com.example.app").restore(from: URL(fileURLWithPath: "app-backup.sqlite3"))
    /// ```
    /// - Parameters:
    ///   - backup: the backup file to read.
    ///   - schema: the schema the restored rows must obey, as ``Defaults/Configuration/schema`` gives a
    ///     store's; nil (the default) obeys the installed one (``installedSchema()``).
    /// - Returns: the forced keys whose rows were kept, sorted (usually none), as
    ///   ``Defaults/replacePersistentValues(_:forName:)`` returns them.
    /// - Throws: ``DefaultsError/invalidSchema(suite:key:reason:)`` when `schema` is another domain's
    ///   (nothing is read); ``DefaultsError/invalidBackup(path:reason:)``,
    ///   ``DefaultsError/forced(suite:key:)`` for a key the managed domain forces whose row the backup
    ///   would change, ``DefaultsError/valueNotAccepted(suite:key:accepts:)`` or
    ///   ``DefaultsError/undeclaredKey(suite:key:nearest:)`` for a row the schema refuses,
    ///   ``DefaultsError/unsafePath(path:)``, ``DefaultsError/hardLinked(path:)`` or
    ///   ``DefaultsError/permissionDenied(path:)`` for the backup; ``DefaultsError/noSuchDomain(suite:)``
    ///   for an in-memory location; an error of opening the domain (a corrupt one: move it aside with
    ///   ``repair()`` first); ``DefaultsError/busy(suite:key:)`` or another storage
    ///   error. Nothing changes when it throws.
    @discardableResult
    public func restore(from backup: URL, schema: PreferenceSchema? = nil) throws -> [String] {
        if let schema, schema.suiteName != name {
            throw DefaultsError.invalidSchema(
                suite: schema.suiteName, key: nil, reason: "it is given to a restore of domain '\(name)'")
        }
        var configuration = configuration()
        configuration.schema = schema
        let registry = configuration.storeRegistry()
        guard registry.root != nil else { throw DefaultsError.noSuchDomain(suite: name) }
        let domain = DomainSlot(name: name, registry: registry, policy: .of(history: configuration.history, syncDevice: nil))
        let existing = try domain.store()
        let content = try DomainBackup.contents(
            of: backup, suite: name, live: existing, busyTimeoutMilliseconds: registry.busyTimeoutMilliseconds)
        let rules = try Defaults.writeRules(of: name, excluding: existing, root: registry.root, configuration: configuration)
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
