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
    ///   (``DefaultsError/corruptStore(path:reason:)``, ...), or a storage error writing the copy. Nothing
    ///   is left at `destination` (or the file there is unchanged) when it throws.
    public static func backup(
        suiteName: String, location: Location = .default, to destination: URL, replacing: Bool = false
    ) throws {
        try SuiteName.validate(suiteName)
        let registry = StoreRegistry(configuration: Configuration(location: location, arguments: [], systemDirectories: []))
        guard registry.root != nil, let store = try registry.store(named: suiteName, create: false) else {
            throw DefaultsError.noSuchDomain(suite: suiteName)
        }
        let target = destination.standardizedFileURL.path
        var status = stat()
        if !replacing, lstat(target, &status) == 0 { throw DefaultsError.backupExists(path: target) }
        // NB: SQLite finds a database's log by its name: a file renamed over a database that has one
        // (the domain's own file, another domain in use) would be read with that database's pages.
        let companionOf = Location.companionSuffixes.first(where: target.hasSuffix).map { String(target.dropLast($0.count)) }
        if !DomainFiles.existing(ofDatabase: target).filter({ $0 != target }).isEmpty
            || companionOf.map({ lstat($0, &status) == 0 }) == true
        {
            throw DefaultsError.backupDestinationInUse(path: target)
        }
        let staging = try BackupStaging(for: target)
        // NB: defers run last first: the connection closes before its file is removed.
        defer { staging.discard() }
        let connection: Connection
        do {
            connection = try Connection(path: staging.copy, busyTimeoutMilliseconds: registry.busyTimeoutMilliseconds)
        } catch {
            throw DefaultsError.storage(error, suite: suiteName, key: nil)
        }
        defer { connection.close() }
        try store.copyContents(into: connection)
        // NB: a copy of a database in WAL mode says so in its header; rollback mode makes it one
        // self-contained file, with no `-wal` or `-shm` left beside it once closed.
        do {
            _ = try connection.text("PRAGMA journal_mode = DELETE")
        } catch {
            throw DefaultsError.storage(error, suite: suiteName, key: nil)
        }
        connection.close()
        try staging.moveIntoPlace(replacing: replacing)
    }

    /// Replaces the whole content of the domain `suiteName` with the backup file `backup`, in one write
    /// transaction on the live database, safe while any process has the domain open.
    ///
    /// The backup is checked first, reading only: it must be a healthy store of ours (a file made by
    /// ``backup(suiteName:location:to:replacing:)``, or a domain's file with nothing pending in a
    /// `-wal`), else it is refused and nothing changes. Other processes then see the old content or the
    /// restored one, never a mix; their cached values and observers follow within 100 ms, this process's
    /// at once. Every key, and the record of migrations run, becomes the backup's, but for a key the
    /// managed domain forces, which keeps its row (as in ``replacePersistentValues(_:forName:)``). The
    /// rows are read from the backup and written through the one write door, so nothing of the backup's
    /// own schema (a trigger, another table, its page size) comes along, and a row no write could store
    /// refuses the backup, as does one that does not read back exactly (a key or a text that is not
    /// UTF-8, a value not of its type, two rows of one key). The domain is created when it does not
    /// exist. The backup file is not modified.
    ///
    /// ```swift
    /// try Defaults.restore(suiteName: "com.example.app", from: URL(fileURLWithPath: "app-backup.sqlite3"))
    /// ```
    /// - Parameters:
    ///   - suiteName: the domain to restore.
    ///   - location: where the domain lives; the default resolves as for ``init(suiteName:configuration:)``.
    ///   - systemDirectories: where the managed domain, whose forced keys keep their rows, is looked for;
    ///     the default is ``Location/systemDirectories(environment:)``'s.
    ///   - backup: the backup file to read.
    /// - Returns: the forced keys whose rows were kept, sorted (usually none), as
    ///   ``replacePersistentValues(_:forName:)`` returns them.
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)``, ``DefaultsError/invalidBackup(path:reason:)``,
    ///   ``DefaultsError/forced(suite:key:)`` for a key the managed domain forces whose row the backup
    ///   would change,
    ///   ``DefaultsError/unsafePath(path:)``, ``DefaultsError/hardLinked(path:)`` or
    ///   ``DefaultsError/permissionDenied(path:)`` for the backup; ``DefaultsError/noSuchDomain(suite:)``
    ///   for an in-memory location; an error of opening the domain (a corrupt one: move it aside with
    ///   ``repair(suiteName:location:)`` first); ``DefaultsError/busy(suite:key:)`` or another storage
    ///   error. Nothing changes when it throws.
    @discardableResult
    public static func restore(
        suiteName: String, location: Location = .default, systemDirectories: [URL] = Location.systemDirectories(),
        from backup: URL
    ) throws -> [String] {
        try SuiteName.validate(suiteName)
        let registry = StoreRegistry(configuration: Configuration(location: location, arguments: [], systemDirectories: []))
        guard registry.root != nil else { throw DefaultsError.noSuchDomain(suite: suiteName) }
        let source = backup.standardizedFileURL.path
        guard let status = try Location.status(ofEntry: source) else {
            throw DefaultsError.invalidBackup(path: source, reason: "there is no such file")
        }
        // NB: never a second connection to the domain's own file: closing it would drop every POSIX lock
        // this process holds on the file, SQLite's included.
        if let live = registry.filePath(of: suiteName), let found = try Location.status(ofEntry: live),
            FileIdentity(found) == FileIdentity(status)
        {
            throw DefaultsError.invalidBackup(path: source, reason: "it is the domain's own file")
        }
        let candidate: FileAdmission.Candidate
        do {
            candidate = try FileAdmission.open(
                source, status: status, suite: suiteName, busyTimeoutMilliseconds: registry.busyTimeoutMilliseconds)
        } catch DefaultsError.corruptStore(_, let reason) {
            throw DefaultsError.invalidBackup(path: source, reason: "it is not a readable database (\(reason))")
        } catch DefaultsError.foreignDatabase {
            throw DefaultsError.invalidBackup(path: source, reason: "it is a SQLite database, but not a LayeredDefaults store")
        } catch DefaultsError.unsupportedSchemaVersion(_, let found, let supported) {
            throw DefaultsError.invalidBackup(
                path: source,
                reason: "it was written by a newer version of LayeredDefaults "
                    + "(schema version \(found); this one reads \(supported))")
        }
        defer { FileAdmission.close(refused: candidate.connection, path: source) }
        let content: (values: [String: PreferenceValue], migrations: [String])
        do {
            try Schema.verifyBackup(candidate.connection, path: source)
            let table = PreferencesTable(connection: candidate.connection, suite: suiteName)
            content = (try table.exactValues(), try table.exactMigrationNames())
        } catch let row as PreferencesTable.InexactRow {
            throw DefaultsError.invalidBackup(path: source, reason: row.reason)
        } catch let error as DefaultsError {
            throw error
        } catch {
            throw DefaultsError.storage(error, suite: suiteName, key: nil)
        }
        // NB: checked before the domain is opened (perhaps created): a row no write could store is refused.
        for (key, value) in content.values {
            guard !key.isEmpty else { throw DefaultsError.invalidBackup(path: source, reason: "it holds an empty key") }
            do {
                try value.checkStorable(suite: suiteName, key: key)
            } catch {
                throw DefaultsError.invalidBackup(path: source, reason: "the value of '\(key)' is one no write may store")
            }
        }
        let store = try registry.store(named: suiteName, create: true)!
        // NB: the rows go through the one write door, so every rule on rows holds: forced keys keep
        // their rows, nothing of the backup's schema (triggers, other tables, its page size) comes along.
        let forcedKeys = try forcedKeys(
            of: managedLayer(
                of: suiteName, configuration: Configuration(location: location, systemDirectories: systemDirectories),
                excluding: store))
        let kept = try store.transaction(forcedKeys: forcedKeys) { domain in
            let kept = try domain.replaceAll(with: content.values)
            try domain.replaceMigrationRecords(with: content.migrations)
            return kept
        }
        // NB: this process's observers are evaluated now; other processes' at their next look.
        ObservationCenter.shared.changed(keys: nil as [String]?)
        return kept
    }
}
